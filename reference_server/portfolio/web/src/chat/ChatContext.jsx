// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The conversation and the live state of the answer being streamed:
// messages, streamingContent, toolSteps, thinkingParts. It sits above the
// routes, so going to an initiative's page and back keeps everything.
import { createContext, useCallback, useContext, useRef, useState } from 'react';
import { readEventStream } from '../sse.js';
import { historyForServer } from './history.js';

export const MESSAGES = {
  network: 'No se pudo conectar con el servidor',
  empty: 'No se recibio respuesta del asistente',
  stopped: 'Respuesta detenida.',
  cut: 'La respuesta se cortó antes de terminar.',
};

const ChatContext = createContext(null);

// An assistant message keeps apart what the model said (`content`, the only
// part sent back as history) and what the page adds (`error`, `stopped`).
function assistantMessage(run, stopped) {
  const content = run.text;
  const error = stopped ? null : run.error ?? (content.trim() ? null : MESSAGES.empty);
  return {
    role: 'assistant',
    content,
    error,
    stopped,
    toolSteps: run.steps,
    thinking: run.thinking.filter((t) => t.trim()).join('\n\n'),
  };
}

export function ChatProvider({ children }) {
  const [messages, setMessages] = useState([]);
  const [isLoading, setLoading] = useState(false);
  const [streamingContent, setStreaming] = useState('');
  const [toolSteps, setToolSteps] = useState([]);
  const [thinkingParts, setThinking] = useState([]);
  const [unavailable, setUnavailable] = useState(null); // the 503's message
  const [omitted, setOmitted] = useState(0); // earlier messages the last request left out
  // Which accordions the reader opened ("3:process"): the bubbles remount after a visit to an initiative.
  const [openPanels, setOpenPanels] = useState(() => new Set());
  const togglePanel = useCallback((key, open) => {
    setOpenPanels((now) => {
      if (now.has(key) === open) return now;
      const next = new Set(now);
      if (open) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);
  // What screen readers hear (a polite live region): progress, not every token.
  const [announcement, setAnnouncement] = useState('');
  const live = useRef(null); // what the answer in progress has gathered, and its AbortController

  const send = useCallback(
    async (text) => {
      const question = text.trim();
      if (!question || live.current) return;
      const conversation = [...messages, { role: 'user', content: question }];
      setMessages(conversation);
      setLoading(true);
      setStreaming('');
      setToolSteps([]);
      setThinking([]);
      setAnnouncement('El asistente está respondiendo…');
      const run = { controller: new AbortController(), text: '', steps: [], thinking: [], error: null, done: false };
      live.current = run;

      const finish = ({ stopped = false } = {}) => {
        if (live.current !== run) return; // "Nueva conversación" dropped it
        const message = assistantMessage(run, stopped);
        setMessages((m) => [...m, message]);
        setStreaming('');
        setToolSteps([]);
        setThinking([]);
        setLoading(false);
        setAnnouncement(stopped ? MESSAGES.stopped : message.error ?? 'Respuesta completa.');
        live.current = null;
      };

      const history = historyForServer(conversation);
      setOmitted(history.dropped);
      let response;
      try {
        response = await fetch('/api/v1/agent/chat', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
          body: JSON.stringify({ messages: history.messages }),
          signal: run.controller.signal,
        });
      } catch (e) {
        if (e.name === 'AbortError') return finish({ stopped: true });
        run.error = MESSAGES.network;
        return finish();
      }
      if (!response.ok) {
        let detail = '';
        try {
          detail = (await response.json()).detail ?? '';
        } catch {
          /* not JSON, or aborted while reading */
        }
        if (live.current !== run) return undefined; // "Nueva conversación" or a newer run took over
        if (run.controller.signal.aborted) return finish({ stopped: true });
        if (response.status === 503) {
          // The notice's title already says it is unavailable: keep the server's reason only.
          let reason = detail.replace(/^El asistente no está disponible[:.]?\s*/, '');
          reason = reason ? reason.charAt(0).toUpperCase() + reason.slice(1) : 'Falta configurar el proveedor del modelo.';
          setUnavailable(reason);
          setMessages(messages); // the question was not answered: it goes back to the input
          setLoading(false);
          setAnnouncement(`El asistente no está disponible. ${reason}`);
          live.current = null;
          return { unanswered: question };
        }
        run.error = detail ? `Error ${response.status}: ${detail}` : `Error ${response.status}`;
        return finish();
      }
      setUnavailable(null);
      try {
        await readEventStream(response.body, ({ type, data }) => {
          let payload = {};
          try {
            payload = JSON.parse(data);
          } catch {
            return; // a malformed event: keep what came before (graceful degradation)
          }
          if (type === 'chunk') {
            run.text += payload.content ?? '';
            setStreaming(run.text);
          } else if (type === 'clear_streaming') {
            run.thinking.push(run.text);
            run.text = '';
            setThinking([...run.thinking]);
            setStreaming('');
          } else if (type === 'tool_call') {
            run.steps.push(payload);
            setToolSteps([...run.steps]);
            setAnnouncement(`Consulta ${run.steps.length}: ${payload.tool ?? ''}`);
          } else if (type === 'error') {
            run.error = payload.message || 'Error del asistente';
          } else if (type === 'done') {
            run.done = true;
          }
        });
      } catch (e) {
        if (e.name === 'AbortError') return finish({ stopped: true });
        run.error ??= run.text ? MESSAGES.cut : MESSAGES.network;
      }
      // A stream that ends without `done` or `error` was cut: say so under what came.
      if (!run.done && run.text) run.error ??= MESSAGES.cut;
      return finish();
    },
    [messages],
  );

  const stop = useCallback(() => live.current?.controller.abort(), []);

  const reset = useCallback(() => {
    live.current?.controller.abort();
    live.current = null;
    setMessages([]);
    setStreaming('');
    setToolSteps([]);
    setThinking([]);
    setLoading(false);
    setOmitted(0);
    setOpenPanels(new Set());
    setAnnouncement('Conversación nueva.');
  }, []);

  const value = {
    messages, isLoading, streamingContent, toolSteps, thinkingParts, unavailable, omitted, announcement, send, stop, reset,
    openPanels, togglePanel,
  };
  return <ChatContext.Provider value={value}>{children}</ChatContext.Provider>;
}

export const useChatContext = () => useContext(ChatContext);
