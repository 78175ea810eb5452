// The conversation and the live state of the answer being streamed (seed 000
// §11): messages, streamingContent, toolSteps, thinkingParts. It sits above the
// routes, so going to an initiative's page and back keeps everything.
import { createContext, useCallback, useContext, useRef, useState } from 'react';
import { readEventStream } from '../sse.js';

export const MESSAGES = {
  network: 'No se pudo conectar con el servidor',
  empty: 'No se recibio respuesta del asistente',
  stopped: 'Respuesta detenida.',
};

const ChatContext = createContext(null);

export function ChatProvider({ children }) {
  const [messages, setMessages] = useState([]);
  const [isLoading, setLoading] = useState(false);
  const [streamingContent, setStreaming] = useState('');
  const [toolSteps, setToolSteps] = useState([]);
  const [thinkingParts, setThinking] = useState([]);
  const [unavailable, setUnavailable] = useState(null); // the 503's message
  const live = useRef(null); // what the answer in progress has gathered, and its AbortController

  const send = useCallback(
    async (text) => {
      const question = text.trim();
      if (!question || live.current) return;
      const history = [...messages, { role: 'user', content: question }];
      setMessages(history);
      setLoading(true);
      setStreaming('');
      setToolSteps([]);
      setThinking([]);
      const run = { controller: new AbortController(), text: '', steps: [], thinking: [], error: null, done: false };
      live.current = run;

      const finish = ({ stopped = false } = {}) => {
        if (live.current !== run) return; // "Nueva conversación" dropped it
        let content = run.error ? (run.text ? `${run.text}\n\n${run.error}` : run.error) : run.text;
        if (stopped) content = (run.text ? `${run.text}\n\n` : '') + `*${MESSAGES.stopped}*`;
        setMessages((m) => [
          ...m,
          {
            role: 'assistant',
            content: content || MESSAGES.empty,
            error: !stopped && (Boolean(run.error) || !content),
            stopped,
            toolSteps: run.steps,
            thinking: run.thinking.filter((t) => t.trim()).join('\n\n'),
          },
        ]);
        setStreaming('');
        setToolSteps([]);
        setThinking([]);
        setLoading(false);
        live.current = null;
      };

      let response;
      try {
        response = await fetch('/api/v1/agent/chat', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
          // Only the words go back to the server: it keeps nothing between requests.
          body: JSON.stringify({ messages: history.map(({ role, content }) => ({ role, content })) }),
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
          /* not JSON */
        }
        if (response.status === 503) {
          setUnavailable(detail || 'El asistente no está configurado en el servidor.');
          setMessages(messages); // the question was not answered: keep it for later
          setLoading(false);
          live.current = null;
          return;
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
          } else if (type === 'error') {
            run.error = payload.message || 'Error del asistente';
          } else if (type === 'done') {
            run.done = true;
          }
        });
      } catch (e) {
        if (e.name === 'AbortError') return finish({ stopped: true });
        if (!run.text) run.error = MESSAGES.network;
      }
      finish();
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
  }, []);

  const value = { messages, isLoading, streamingContent, toolSteps, thinkingParts, unavailable, send, stop, reset };
  return <ChatContext.Provider value={value}>{children}</ChatContext.Provider>;
}

export const useChatContext = () => useContext(ChatContext);
