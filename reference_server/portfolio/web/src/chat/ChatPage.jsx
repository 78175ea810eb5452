// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useDocumentTitle } from '../router.jsx';
import { useChatContext } from './ChatContext.jsx';
import ChatInput from './ChatInput.jsx';
import ConversationList from './ConversationList.jsx';
import MarkdownRenderer from './MarkdownRenderer.jsx';
import MessageBubble from './MessageBubble.jsx';
import { ToolStepList } from './ToolSteps.jsx';
import { ApprovalPrompts } from './ApprovalPrompt.jsx';

const EXAMPLES = [
  '¿Cuántas iniciativas hay por estado?',
  '¿Qué unidades tienen más importe en 2025? Hazme un gráfico de barras.',
  'Muéstrame las iniciativas en ejecución con mayor importe.',
];

// Follows the end of the conversation while the reader is there (text
// streaming in, a chart loading, the window resizing); someone who scrolled up
// to read stays where they are until they ask again (`askedKey` changes).
function useStickToBottom(askedKey) {
  const scroller = useRef(null);
  const content = useRef(null);
  const atBottom = useRef(true);
  const onScroll = () => {
    const el = scroller.current;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
  };
  useEffect(() => {
    const follow = new ResizeObserver(() => {
      if (atBottom.current) scroller.current.scrollTop = scroller.current.scrollHeight;
    });
    follow.observe(content.current);
    follow.observe(scroller.current);
    return () => follow.disconnect();
  }, []);
  useLayoutEffect(() => {
    scroller.current.scrollTop = scroller.current.scrollHeight;
    atBottom.current = true;
  }, [askedKey]);
  return { scroller, content, onScroll };
}

export default function ChatPage() {
  const {
    messages, isLoading, streamingContent, toolSteps, formingCalls, thinkingParts, unavailable, omitted, announcement, send, stop, reset,
    openPanels, togglePanel, loadingThread, threadId, approvals, decide,
  } = useChatContext();
  const waiting = isLoading && approvals.length > 0;
  const [listOpen, setListOpen] = useState(false);
  useDocumentTitle('Asistente');
  const questions = messages.filter((m) => m.role === 'user').length;
  const { scroller, content, onScroll } = useStickToBottom(questions);

  // The question box's text lives here: examples and the box share one way to
  // ask, and a question the server could not take (503) comes back to the box.
  const [text, setText] = useState('');
  const box = useRef(null);
  const ask = useCallback(
    async (question) => {
      setText('');
      const outcome = await send(question);
      if (outcome?.unanswered) setText((now) => (now === '' ? outcome.unanswered : now));
    },
    [send],
  );
  const askExample = (question) => {
    box.current?.focus(); // the example buttons go away: the focus must not go with them
    ask(question);
  };
  const startOver = () => {
    reset();
    box.current?.focus(); // the button disables itself
  };
  // An opened conversation is read from the question box; the list closes behind it.
  const opened = () => {
    setListOpen(false);
    box.current?.focus();
  };

  // Escape stops the answer wherever the focus is (not while an IME composes).
  useEffect(() => {
    if (!isLoading) return undefined;
    const onKey = (e) => {
      if (e.key === 'Escape' && !e.defaultPrevented && !e.isComposing) stop();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [isLoading, stop]);

  return (
    <main className="chat-page">
      <div className="chat-toolbar">
        <h1>Asistente de la cartera</h1>
        <div className="toolbar-actions">
          <button
            type="button"
            className="button ghost"
            onClick={startOver}
            disabled={messages.length === 0 && !isLoading && !threadId}
          >
            Nueva conversación
          </button>
          <button
            type="button"
            className="button ghost"
            aria-expanded={listOpen}
            aria-controls="conversations"
            onClick={() => setListOpen((o) => !o)}
          >
            Conversaciones
          </button>
        </div>
      </div>
      {listOpen && <ConversationList id="conversations" onOpened={opened} />}

      <div className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>

      {/* The scroller is a tab stop so a keyboard can scroll it (WCAG 2.1.1). */}
      <section
        className="messages-scroll"
        ref={scroller}
        onScroll={onScroll}
        tabIndex={0}
        aria-label="Conversación"
      >
        <div className="messages" ref={content}>
          {loadingThread && <p className="muted">Cargando la conversación…</p>}
          {messages.length === 0 && !isLoading && !loadingThread && (
            <div className="empty">
              <p>Pregunte por las iniciativas, sus importes, estados o documentos. Algunas ideas:</p>
              <ul>
                {EXAMPLES.map((q) => (
                  <li key={q}>
                    <button type="button" className="example" onClick={() => askExample(q)}>
                      {q}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {messages.map((m, i) => (
            <MessageBubble
              key={i}
              message={m}
              isOpen={(panel) => openPanels.has(`${i}:${panel}`)}
              onToggle={(panel, open) => togglePanel(`${i}:${panel}`, open)}
            />
          ))}
          {isLoading && (
            // Busy hides changes from screen readers: not while it asks the reader something.
            <div className="message assistant live" aria-busy={!waiting}>
              <div className="bubble">
                <h2 className="visually-hidden">El asistente está respondiendo:</h2>
                {/* A round without text has nothing to show; the key is the one the finished message takes. */}
                {thinkingParts.some((t) => t.trim()) && (
                  <details
                    className="accordion thinking"
                    open={openPanels.has(`${messages.length}:thinking`)}
                    onToggle={(e) => togglePanel(`${messages.length}:thinking`, e.currentTarget.open)}
                  >
                    <summary>Razonamiento del asistente</summary>
                    <MarkdownRenderer text={thinkingParts.filter((t) => t.trim()).join('\n\n')} />
                  </details>
                )}
                {(toolSteps.length > 0 || formingCalls.length > 0) && (
                  <div className="activity">
                    <div className="activity-title">Consultando datos…</div>
                    <ToolStepList steps={toolSteps} forming={formingCalls} />
                  </div>
                )}
                {streamingContent && <MarkdownRenderer text={streamingContent} />}
                {waiting && <ApprovalPrompts approvals={approvals} onDecide={decide} />}
                {!streamingContent && !waiting && (
                  <div className="typing" aria-hidden="true">
                    <span />
                    <span />
                    <span />
                  </div>
                )}
              </div>
            </div>
          )}
        </div>
      </section>

      <div className="chat-input-bar">
        {/* Next to the box, so it is seen wherever the conversation is scrolled; the status region announces it. */}
        {unavailable && (
          <div className="notice">
            <strong>El asistente no está disponible.</strong> {unavailable}
            <p>
              Configure un proveedor del modelo en el servidor (<code>ANTHROPIC_API_KEY</code>, o{' '}
              <code>AGENT_PROVIDER=openai</code> con <code>OPENAI_API_KEY</code>) y reinícielo.
            </p>
          </div>
        )}
        {omitted > 0 && (
          <p className="context-note">
            La conversación es larga: el asistente solo ha leído los mensajes más recientes ({omitted}{' '}
            {omitted === 1 ? 'mensaje anterior queda' : 'mensajes anteriores quedan'} fuera).
          </p>
        )}
        <ChatInput text={text} setText={setText} onSend={ask} onStop={stop} busy={isLoading} waiting={waiting} inputRef={box} />
      </div>
    </main>
  );
}
