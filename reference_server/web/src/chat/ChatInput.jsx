import { useEffect, useRef, useState } from 'react';

// Enter sends, Shift+Enter starts a new line; while an answer streams the button stops it.
export default function ChatInput({ onSend, onStop, busy }) {
  const [text, setText] = useState('');
  const area = useRef(null);
  useEffect(() => {
    if (!busy) area.current?.focus();
  }, [busy]);
  useEffect(() => {
    // Grow with the text, up to the CSS max-height.
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  }, [text]);
  const submit = () => {
    if (busy || !text.trim()) return;
    onSend(text);
    setText('');
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
        placeholder="Pregunta sobre la cartera de iniciativas…"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      {busy ? (
        <button type="button" className="button stop" onClick={onStop}>
          Detener
        </button>
      ) : (
        <button type="submit" className="button send" disabled={!text.trim()}>
          Enviar
        </button>
      )}
    </form>
  );
}
