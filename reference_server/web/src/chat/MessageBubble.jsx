import MarkdownRenderer from './MarkdownRenderer.jsx';
import { ToolStepList } from './ToolSteps.jsx';

export default function MessageBubble({ message }) {
  if (message.role === 'user')
    return (
      <div className="message user">
        <div className="bubble">{message.content}</div>
      </div>
    );
  const steps = message.toolSteps ?? [];
  return (
    <div className={`message assistant${message.error ? ' error' : ''}`}>
      <div className="bubble">
        {message.thinking && (
          <details className="accordion thinking">
            <summary>Razonamiento del asistente</summary>
            <MarkdownRenderer text={message.thinking} />
          </details>
        )}
        {steps.length > 0 && (
          <details className="accordion process">
            <summary>
              Proceso de respuesta · {steps.length} {steps.length === 1 ? 'consulta' : 'consultas'}
            </summary>
            <ToolStepList steps={steps} />
          </details>
        )}
        <MarkdownRenderer text={message.content} />
      </div>
    </div>
  );
}
