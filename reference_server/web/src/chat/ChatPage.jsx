import { useEffect, useRef } from 'react';
import { useChatContext } from './ChatContext.jsx';
import ChatInput from './ChatInput.jsx';
import MarkdownRenderer from './MarkdownRenderer.jsx';
import MessageBubble from './MessageBubble.jsx';
import { ToolStepList } from './ToolSteps.jsx';

const EXAMPLES = [
  '¿Cuántas iniciativas hay por estado?',
  '¿Qué unidades tienen más importe en 2025? Hazme un gráfico de barras.',
  'Muéstrame las iniciativas en ejecución con mayor importe.',
];

export default function ChatPage() {
  const { messages, isLoading, streamingContent, toolSteps, thinkingParts, unavailable, send, stop, reset } =
    useChatContext();
  const end = useRef(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages, streamingContent, toolSteps]);

  return (
    <main className="chat-page">
      <div className="chat-toolbar">
        <h1>Asistente de la cartera</h1>
        <button type="button" className="button ghost" onClick={reset} disabled={messages.length === 0 && !isLoading}>
          Nueva conversación
        </button>
      </div>

      {unavailable && (
        <div className="notice" role="alert">
          <strong>El asistente no está disponible.</strong> {unavailable}
          <p>
            Configure un proveedor del modelo en el servidor (<code>ANTHROPIC_API_KEY</code>, o{' '}
            <code>AGENT_PROVIDER=openai</code> con <code>OPENAI_API_KEY</code>) y reinícielo.
          </p>
        </div>
      )}

      <section className="messages" aria-live="polite" aria-busy={isLoading}>
        {messages.length === 0 && !isLoading && (
          <div className="empty">
            <p>Pregunte por las iniciativas, sus importes, estados o documentos. Algunas ideas:</p>
            <ul>
              {EXAMPLES.map((q) => (
                <li key={q}>
                  <button type="button" className="example" onClick={() => send(q)}>
                    {q}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
        {messages.map((m, i) => (
          <MessageBubble key={i} message={m} />
        ))}
        {isLoading && (
          <div className="message assistant live">
            <div className="bubble">
              {thinkingParts.length > 0 && (
                <details className="accordion thinking">
                  <summary>Razonamiento del asistente</summary>
                  <MarkdownRenderer text={thinkingParts.join('\n\n')} />
                </details>
              )}
              {toolSteps.length > 0 && (
                <div className="activity" aria-label="Actividad de las herramientas">
                  <div className="activity-title">Consultando datos…</div>
                  <ToolStepList steps={toolSteps} />
                </div>
              )}
              {streamingContent ? (
                <MarkdownRenderer text={streamingContent} />
              ) : (
                <div className="typing" aria-label="El asistente está pensando">
                  <span />
                  <span />
                  <span />
                </div>
              )}
            </div>
          </div>
        )}
        <div ref={end} />
      </section>

      <ChatInput onSend={send} onStop={stop} busy={isLoading} />
    </main>
  );
}
