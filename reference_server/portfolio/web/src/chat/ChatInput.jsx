// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

import { useEffect, useRef } from 'react';
import { MESSAGES } from './ChatContext.jsx';
import { questionBytes, SERVER_LIMITS } from './history.js';

const number = (n) => n.toLocaleString('es-ES');

// Enter sends, Shift+Enter starts a new line; while an answer streams the
// button stops it (Escape too: see ChatPage). The text is the page's (`text`,
// `setText`), so a question the server could not take goes back into the box.
// When an answer ends the focus comes back here only from the form itself or
// from nowhere: a reader elsewhere in the conversation is left where they are.
// While a tool call waits for the reader's decision (`waiting`) the box says so.
export default function ChatInput({ text, setText, onSend, onStop, busy, waiting = false, inputRef }) {
  const area = useRef(null);
  useEffect(() => {
    if (inputRef) inputRef.current = area.current;
  }, [inputRef]);
  useEffect(() => {
    const active = document.activeElement;
    if (!busy && (!active || active === document.body || area.current?.form?.contains(active))) area.current?.focus();
  }, [busy]);
  useEffect(() => {
    // Grow with the text, up to the CSS max-height.
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  }, [text]);
  const bytes = questionBytes(text.trim());
  const tooLong = bytes > SERVER_LIMITS.maxMessageBytes;
  const described = ['question-hint', waiting && 'question-waiting', tooLong && 'question-too-long'].filter(Boolean).join(' ');
  const submit = () => {
    if (busy || !text.trim() || tooLong) return;
    onSend(text);
  };
  return (
    <form
      className="chat-input"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor="question" className="visually-hidden">
        Pregunta al asistente
      </label>
      <textarea
        id="question"
        ref={area}
        rows={1}
        value={text}
        placeholder={waiting ? 'El asistente espera su decisión…' : 'Pregunte sobre la cartera…'}
        aria-describedby={described}
        aria-invalid={tooLong || undefined}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <span id="question-hint" className="visually-hidden">
        Intro envía; Mayúsculas+Intro añade una línea; Escape detiene la respuesta.
      </span>
      {busy ? (
        <button type="button" className="button stop" onClick={onStop}>
          Detener
        </button>
      ) : (
        <button type="submit" className="button send" disabled={!text.trim() || tooLong}>
          Enviar
        </button>
      )}
      {waiting && (
        <p id="question-waiting" className="input-note">
          {MESSAGES.waiting} Apruebe o rechace la consulta en la respuesta; «Detener» la cancela.
        </p>
      )}
      {tooLong && (
        <p id="question-too-long" className="input-error">
          La pregunta es demasiado larga: {number(bytes)} bytes de {number(SERVER_LIMITS.maxMessageBytes)} como máximo.
        </p>
      )}
    </form>
  );
}
