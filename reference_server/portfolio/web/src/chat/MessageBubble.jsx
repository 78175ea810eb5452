// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

import { MESSAGES } from './ChatContext.jsx';
import MarkdownRenderer from './MarkdownRenderer.jsx';
import { ToolStepList } from './ToolSteps.jsx';

// Each message starts with a heading only screen readers show, so they can
// move from message to message and hear who said what. Whether its accordions
// are open is kept by the caller (`isOpen`, `onToggle`), so it outlives the bubble.
export default function MessageBubble({ message, isOpen = () => false, onToggle = () => {} }) {
  const panel = (name) => ({ open: isOpen(name), onToggle: (e) => onToggle(name, e.currentTarget.open) });
  if (message.role === 'user')
    return (
      <div className="message user">
        <div className="bubble">
          <h2 className="visually-hidden">Usted dijo:</h2>
          {message.content}
        </div>
      </div>
    );
  const steps = message.toolSteps ?? [];
  const failed = Boolean(message.error) && !message.content.trim();
  return (
    <div className={`message assistant${failed ? ' error' : ''}`}>
      <div className="bubble">
        <h2 className="visually-hidden">El asistente dijo:</h2>
        {message.thinking && (
          <details className="accordion thinking" {...panel('thinking')}>
            <summary>Razonamiento del asistente</summary>
            <MarkdownRenderer text={message.thinking} />
          </details>
        )}
        {steps.length > 0 && (
          <details className="accordion process" {...panel('process')}>
            <summary>
              Proceso de respuesta · {steps.length} {steps.length === 1 ? 'consulta' : 'consultas'}
            </summary>
            <ToolStepList steps={steps} />
          </details>
        )}
        {message.content && <MarkdownRenderer text={message.content} />}
        {message.error && <p className="message-error">{message.error}</p>}
        {message.stopped && <p className="message-note">{MESSAGES.stopped}</p>}
      </div>
    </div>
  );
}
