import { useEffect } from 'react';
import { Link, Router, useRouter } from './router.jsx';
import { ChatProvider } from './chat/ChatContext.jsx';
import ChatPage from './chat/ChatPage.jsx';
import DetailPage from './detail/DetailPage.jsx';

function Routes() {
  const { path, navigate } = useRouter();
  useEffect(() => {
    if (path === '/') navigate('/chat', { replace: true });
  }, [path, navigate]);
  const detail = path.match(/^\/detail\/([^/]+)\/?$/);
  if (detail) return <DetailPage portfolioId={decodeURIComponent(detail[1])} />;
  if (path === '/chat' || path === '/') return <ChatPage />;
  return (
    <main className="page narrow">
      <h1>Página no encontrada</h1>
      <p>
        La dirección <code>{path}</code> no existe. <Link to="/chat">Volver al asistente</Link>
      </p>
    </main>
  );
}

export default function App() {
  return (
    <Router>
      {/* The conversation lives above the routes: it survives chat → detail → back. */}
      <ChatProvider>
        <header className="topbar">
          <Link to="/chat" className="brand" aria-label="Portfolio Digital, asistente">
            <span className="brand-mark" aria-hidden="true">PD</span>
            <span>Portfolio Digital</span>
          </Link>
          <nav aria-label="Principal">
            <Link to="/chat">Asistente</Link>
          </nav>
        </header>
        <Routes />
      </ChatProvider>
    </Router>
  );
}
