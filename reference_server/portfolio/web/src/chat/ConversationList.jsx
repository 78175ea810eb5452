// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The stored conversations (GET /api/v1/threads), newest first: a button opens
// one, "Eliminar" deletes it at once (its accessible name says which). A
// navigation landmark with its own heading, so a screen reader finds it.
import { useEffect, useRef, useState } from 'react';
import { useChatContext } from './ChatContext.jsx';

const when = (iso) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString('es-ES', { dateStyle: 'medium', timeStyle: 'short' });
};
const titleOf = (t) => t.title?.trim() || 'Sin título';

export default function ConversationList({ id, onOpened }) {
  const { threadId, threadsVersion, open, forget, setAnnouncement } = useChatContext();
  const [threads, setThreads] = useState(null); // null until the first answer
  const [failure, setFailure] = useState('');
  const list = useRef(null);
  const heading = useRef(null);

  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/v1/threads?limit=50', { signal: controller.signal })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`Error ${r.status}`))))
      .then((body) => {
        setThreads(body.threads ?? []);
        setFailure('');
      })
      .catch((e) => {
        if (e.name !== 'AbortError') setFailure(e.message.startsWith('Error') ? e.message : 'No se pudo conectar con el servidor');
      });
    return () => controller.abort();
  }, [threadsVersion]);

  const choose = (t) => {
    open(t.id);
    onOpened?.();
  };

  const remove = async (t, index) => {
    let ok = false;
    try {
      ok = (await fetch(`/api/v1/threads/${encodeURIComponent(t.id)}`, { method: 'DELETE' })).ok;
    } catch {
      /* said below */
    }
    if (!ok) {
      setAnnouncement(`No se pudo eliminar «${titleOf(t)}».`);
      return;
    }
    forget(t.id); // first: a page that starts over says so, and this says more
    setThreads((now) => now.filter((x) => x.id !== t.id));
    setAnnouncement(`Conversación «${titleOf(t)}» eliminada.`);
    // The focus was on the button that went away: the next conversation, else the heading.
    requestAnimationFrame(() => {
      const buttons = list.current?.querySelectorAll('.conversation-open');
      const next = buttons?.[Math.min(index, buttons.length - 1)];
      (next ?? heading.current)?.focus();
    });
  };

  return (
    <nav id={id} className="conversations" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        Conversaciones
      </h2>
      {failure && <p className="message-error">No se pudo cargar la lista: {failure}</p>}
      {threads === null && !failure && <p className="muted">Cargando…</p>}
      {threads?.length === 0 && <p className="muted">Aún no hay conversaciones guardadas.</p>}
      {threads?.length > 0 && (
        <ul ref={list}>
          {threads.map((t, i) => (
            <li key={t.id}>
              <button
                type="button"
                className="conversation-open"
                aria-current={t.id === threadId ? 'true' : undefined}
                onClick={() => choose(t)}
              >
                <span className="conversation-title">{titleOf(t)}</span>
                <time dateTime={t.updated_at}>{when(t.updated_at)}</time>
              </button>
              <button type="button" className="button ghost small" aria-label={`Eliminar «${titleOf(t)}»`}
                onClick={() => remove(t, i)}>
                Eliminar
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
