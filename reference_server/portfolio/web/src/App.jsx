// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

import { useEffect } from 'react';
import { Link, Router, useDocumentTitle, useRouteHeading, useRouter } from './router.jsx';
import { ChatProvider } from './chat/ChatContext.jsx';
import ChatPage from './chat/ChatPage.jsx';
import DetailPage from './detail/DetailPage.jsx';

function NotFound({ path }) {
  const heading = useRouteHeading();
  useDocumentTitle('Página no encontrada');
  return (
    <main className="page narrow">
      <h1 ref={heading} tabIndex={-1}>
        Página no encontrada
      </h1>
      <p>
        La dirección <code>{path}</code> no existe. <Link to="/chat">Volver al asistente</Link>
      </p>
    </main>
  );
}

function Routes() {
  const { path, navigate } = useRouter();
  useEffect(() => {
    if (path === '/') navigate('/chat', { replace: true });
  }, [path, navigate]);
  const detail = path.match(/^\/detail\/([^/]+)\/?$/);
  // Keyed by the id: another initiative is a new page (title, focus on its heading).
  if (detail) return <DetailPage key={detail[1]} portfolioId={decodeURIComponent(detail[1])} />;
  if (path === '/chat' || path === '/') return <ChatPage />;
  return <NotFound path={path} />;
}

function TopBar() {
  const { path } = useRouter();
  return (
    <header className="topbar">
      <Link to="/chat" className="brand">
        <span className="brand-mark" aria-hidden="true">PD</span>
        <span>Portfolio Digital</span>
      </Link>
      <nav aria-label="Principal">
        <Link to="/chat" aria-current={path === '/chat' ? 'page' : undefined}>
          Asistente
        </Link>
      </nav>
    </header>
  );
}

export default function App() {
  return (
    <Router>
      {/* The conversation lives above the routes: it survives chat → detail → back. */}
      <ChatProvider>
        <TopBar />
        <Routes />
      </ChatProvider>
    </Router>
  );
}
