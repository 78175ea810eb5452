// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The conversation and the live state of the answer being streamed:
// messages, streamingContent, toolSteps, thinkingParts. It sits above the
// routes, so going to an initiative's page and back keeps everything.
//
// The server stores the conversation (a thread) and runs each answer on its
// own: the page keeps the thread's id in sessionStorage, so F5 reloads the
// thread and, if an answer was still being written, reads its events again
// from the start and follows it live. A broken stream is picked up where it
// stopped (Last-Event-ID).
//
// A tool that needs the user's approval stops the run (`approval_required`,
// then the stream ends): the answer stays open with a prompt per call until
// each is decided (POST …/runs/{id}/approvals), then its events are read on.
import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { readEventStream } from '../sse.js';
import { historyForServer } from './history.js';
import { applyEvent, conversationFromThread, newRun } from './run.js';

export const MESSAGES = {
  network: 'No se pudo conectar con el servidor',
  empty: 'No se recibio respuesta del asistente',
  stopped: 'Respuesta detenida.',
  cut: 'La respuesta se cortó antes de terminar.',
  waiting: 'El asistente espera su decisión.',
};

const ChatContext = createContext(null);

const THREAD_KEY = 'agentio.thread';
// Per tab: two tabs can hold two conversations; storage may be refused (private modes).
function rememberThread(id) {
  try {
    if (id) sessionStorage.setItem(THREAD_KEY, id);
    else sessionStorage.removeItem(THREAD_KEY);
  } catch {
    /* the conversation just won't survive a reload */
  }
}
function rememberedThread() {
  try {
    return sessionStorage.getItem(THREAD_KEY);
  } catch {
    return null;
  }
}

const SSE = { Accept: 'text/event-stream' };
const REATTACH_TRIES = 3;
const sleep = (ms, signal) =>
  new Promise((ok) => {
    const timer = setTimeout(ok, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), ok()), { once: true });
  });

// The calls still waiting for this page's decision (one sent is not asked again).
const undecided = (run) => run.state.approvals.filter((a) => !run.decided.has(a.tool_call_id));

/** Asks the server to stop a run; resolves when it answered (never rejects). */
function cancelRun(runId) {
  if (!runId) return Promise.resolve();
  return fetch(`/api/v1/agent/runs/${encodeURIComponent(runId)}/cancel`, { method: 'POST' }).then(
    () => {},
    () => {},
  );
}

// An assistant message keeps apart what the model said (`content`) and what
// the page adds (`error`, `stopped`).
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

async function errorDetail(response) {
  try {
    return (await response.json()).detail ?? '';
  } catch {
    return ''; // not JSON, or aborted while reading
  }
}

export function ChatProvider({ children }) {
  const [messages, setMessages] = useState([]);
  const [isLoading, setLoading] = useState(false);
  const [shown, setShown] = useState(newRun); // the answer in progress as displayed
  const [decided, setDecided] = useState(() => new Set()); // its approvals already sent
  const [threadId, setThreadId] = useState(null);
  const [loadingThread, setLoadingThread] = useState(false);
  const [threadsVersion, setThreadsVersion] = useState(0); // bumps when the list of conversations changed
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
  const live = useRef(null); // the answer in progress: its run state, ids, AbortController
  const thread = useRef(null); // the thread's id as the callbacks need it now
  const cancelling = useRef(null); // the last cancel request, which the next question waits for
  const view = useRef(0); // bumps when another conversation is shown: late answers of the old one are dropped

  const adoptThread = useCallback((id) => {
    if (!id || thread.current === id) return;
    thread.current = id;
    setThreadId(id);
    rememberThread(id);
    setThreadsVersion((v) => v + 1);
  }, []);

  const startLive = () => {
    const run = { controller: new AbortController(), state: newRun(), runId: null, stopped: false, decided: new Set() };
    live.current = run;
    setLoading(true);
    setShown(run.state);
    setDecided(run.decided);
    return run;
  };

  const finish = useCallback((run, { stopped = false } = {}) => {
    if (live.current !== run) return; // stopped, or "Nueva conversación" dropped it
    const wasStopped = stopped || run.state.status === 'cancelled';
    const message = assistantMessage(run.state, wasStopped);
    setMessages((m) => [...m, message]);
    setShown(newRun());
    setLoading(false);
    setAnnouncement(wasStopped ? MESSAGES.stopped : message.error ?? 'Respuesta completa.');
    setThreadsVersion((v) => v + 1);
    live.current = null;
  }, []);

  // The end of a reading: the answer, unless it waits for the user's decisions.
  const settle = useCallback(
    (run) => {
      if (live.current !== run || run.controller.signal.aborted || !undecided(run).length) return finish(run);
      return undefined; // the prompts are up, and the status already asked for a decision
    },
    [finish],
  );

  // Reads a run's events into `run` until `done`, `error` or a wait for approvals;
  // a stream that breaks is asked again from the last event seen. `response` is
  // the first stream; without one the reading starts after the last event seen.
  const follow = useCallback(
    async (run, response) => {
      run.reading = true; // one reader at a time: a decision sent meanwhile leaves the reading to it
      try {
        for (let tries = 0; ; ) {
          if (response) {
            try {
              await readEventStream(response.body, (event) => {
                const before = run.state;
                run.state = applyEvent(run.state, event);
                if (live.current !== run || run.state === before) return;
                setShown(run.state);
                if (run.state.steps.length > before.steps.length) {
                  const step = run.state.steps.at(-1);
                  setAnnouncement(`Consulta ${run.state.steps.length}: ${step.tool ?? ''}`);
                }
                if (run.state.approvals.length > before.approvals.length) {
                  const pending = undecided(run).length;
                  setAnnouncement(`El asistente pide su aprobación para usar ${run.state.approvals.at(-1).tool}` +
                    (pending > 1 ? ` (${pending} consultas por decidir).` : '.'));
                }
                if (event.type === 'done') adoptThread(run.state.events.at(-1)?.payload.thread_id);
              });
            } catch (e) {
              if (e.name === 'AbortError' || run.controller.signal.aborted) return;
            }
            // A stream that ends on a call to decide is the run asleep, not a cut one.
            if (run.state.done || run.state.error || run.controller.signal.aborted || undecided(run).length) return;
          }
          // Cut before the end: the server keeps the run a while, so read on from where it stopped.
          if (!run.runId || tries++ >= REATTACH_TRIES) break;
          if (response) await sleep(300 * tries, run.controller.signal);
          if (run.controller.signal.aborted) return;
          response = null;
          try {
            response = await fetch(`/api/v1/agent/runs/${encodeURIComponent(run.runId)}/events`, {
              headers: { ...SSE, 'Last-Event-ID': String(run.state.lastId) },
              signal: run.controller.signal,
            });
          } catch (e) {
            if (e.name === 'AbortError') return;
            continue;
          }
          if (!response.ok) break;
        }
        run.state = { ...run.state, error: run.state.error ?? (run.state.text ? MESSAGES.cut : MESSAGES.network) };
      } finally {
        run.reading = false;
      }
    },
    [adoptThread],
  );

  const send = useCallback(
    async (text) => {
      const question = text.trim();
      if (!question || live.current || loadingThread) return undefined;
      const conversation = [...messages, { role: 'user', content: question }];
      setMessages(conversation);
      setAnnouncement('El asistente está respondiendo…');
      const run = startLive();

      // A stored thread takes only the new question; without one (none yet, or the
      // first answers failed before the server kept anything) the page sends what fits.
      const body = { messages: [{ role: 'user', content: question }] };
      if (thread.current) {
        body.thread_id = thread.current;
        setOmitted(0);
      } else {
        const history = historyForServer(conversation);
        body.messages = history.messages;
        setOmitted(history.dropped);
      }
      let response;
      try {
        await cancelling.current; // an answer just stopped: let the server hear it first
        for (let tries = 0; ; ++tries) {
          response = await fetch('/api/v1/agent/chat', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', ...SSE },
            body: JSON.stringify(body),
            signal: run.controller.signal,
          });
          // 409: the thread's previous answer is still winding down (stopped a moment ago).
          if (response.status !== 409 || tries >= 5) break;
          await sleep(300, run.controller.signal);
        }
      } catch (e) {
        if (e.name !== 'AbortError') run.state = { ...run.state, error: MESSAGES.network };
        return finish(run);
      }
      run.runId = response.headers.get('X-Run-Id');
      if (response.ok) adoptThread(response.headers.get('X-Thread-Id'));
      if (run.stopped) {
        // "Detener" came before the headers: now the run has a name to cancel.
        cancelling.current = cancelRun(run.runId);
        run.controller.abort();
        return undefined;
      }
      if (!response.ok) {
        const detail = await errorDetail(response);
        if (live.current !== run) return undefined; // stopped, "Nueva conversación" or a newer run took over
        if (response.status === 503) {
          // The notice's title already says it is unavailable: keep the server's reason only.
          let reason = detail.replace(/^El asistente no está disponible[:.]?\s*/, '');
          reason = reason ? reason.charAt(0).toUpperCase() + reason.slice(1) : 'Falta configurar el proveedor del modelo.';
          setUnavailable(reason);
          setMessages(messages); // the question was not answered: it goes back to the input
          setLoading(false);
          setShown(newRun());
          setAnnouncement(`El asistente no está disponible. ${reason}`);
          live.current = null;
          return { unanswered: question };
        }
        if (response.status === 404 && body.thread_id) {
          // The conversation was deleted meanwhile: the next question starts a new one.
          thread.current = null;
          setThreadId(null);
          rememberThread(null);
        }
        run.state = { ...run.state, error: detail ? `Error ${response.status}: ${detail}` : `Error ${response.status}` };
        return finish(run);
      }
      setUnavailable(null);
      await follow(run, response);
      return settle(run);
    },
    [messages, loadingThread, finish, settle, follow, adoptThread],
  );

  // Reads again, from its first event, the answer a thread has in progress.
  const attach = useCallback(
    async (runId) => {
      const run = startLive();
      run.runId = runId;
      setAnnouncement('El asistente está respondiendo…');
      let response;
      try {
        response = await fetch(`/api/v1/agent/runs/${encodeURIComponent(runId)}/events?after=0`, {
          headers: SSE,
          signal: run.controller.signal,
        });
      } catch (e) {
        if (e.name !== 'AbortError') run.state = { ...run.state, error: MESSAGES.network };
        return finish(run);
      }
      if (!response.ok) {
        run.state = { ...run.state, error: `Error ${response.status}: ${await errorDetail(response)}` };
        return finish(run);
      }
      await follow(run, response);
      return settle(run);
    },
    [finish, settle, follow],
  );

  // Sends the user's decision on a call; once none is left to decide, reads the
  // run on from the last event seen. Resolves with an error to show at the
  // prompt, or null.
  const decide = useCallback(
    async (toolCallId, approved, reason = '') => {
      const run = live.current;
      if (!run?.runId || run.decided.has(toolCallId)) return null;
      let response;
      try {
        response = await fetch(`/api/v1/agent/runs/${encodeURIComponent(run.runId)}/approvals`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ tool_call_id: toolCallId, approved, ...(reason.trim() && { reason: reason.trim() }) }),
          signal: run.controller.signal,
        });
      } catch (e) {
        return e.name === 'AbortError' ? null : MESSAGES.network;
      }
      let answer = {};
      try {
        answer = await response.json();
      } catch {
        /* no body: the status says enough */
      }
      if (live.current !== run) return null;
      if (response.status === 404) {
        run.state = { ...run.state, error: 'La ejecución ya no existe.' };
        finish(run);
        return null;
      }
      // 409: decided already (another tab, or before a reload) or the run waits no more: the events say what follows.
      if (!response.ok && response.status !== 409)
        return answer.detail ? `Error ${response.status}: ${answer.detail}` : `Error ${response.status}`;
      run.decided.add(toolCallId);
      setDecided(new Set(run.decided));
      const left = undecided(run).length;
      if (left) {
        setAnnouncement(`Decisión enviada. ${left === 1 ? 'Queda 1 consulta' : `Quedan ${left} consultas`} por decidir.`);
        return null;
      }
      setAnnouncement(approved ? 'Consulta aprobada: el asistente sigue.' : 'Consulta rechazada: el asistente sigue.');
      // Decided before the stream ended: the reader still on it goes on past the end.
      if (run.reading) return null;
      // "waiting" with nothing left here: the stream was cut before the other calls; reading on shows them.
      await follow(run, null);
      settle(run);
      return null;
    },
    [finish, settle, follow],
  );

  // Stops reading and asks the server to stop the run; the answer shows as stopped at once.
  const stop = useCallback(() => {
    const run = live.current;
    if (!run) return;
    run.stopped = true;
    finish(run, { stopped: true });
    if (run.runId) {
      cancelling.current = cancelRun(run.runId);
      run.controller.abort();
    } else {
      // Before the headers there is no run id yet: send() cancels when they come.
      setTimeout(() => run.controller.abort(), 5000);
    }
  }, [finish]);

  // Leaves the conversation shown: an answer in progress is cancelled, not left to time out.
  const leave = useCallback(() => {
    const run = live.current;
    live.current = null;
    if (run) {
      run.stopped = true;
      cancelling.current = cancelRun(run.runId);
      run.controller.abort();
    }
    view.current++;
    setShown(newRun());
    setLoading(false);
    setOmitted(0);
    setUnavailable(null);
    setOpenPanels(new Set());
  }, []);

  const reset = useCallback(() => {
    leave();
    thread.current = null;
    setThreadId(null);
    rememberThread(null);
    setMessages([]);
    setAnnouncement('Conversación nueva.');
  }, [leave]);

  // Shows a stored conversation; an answer it has in progress is followed live.
  const open = useCallback(
    async (id) => {
      leave();
      const mine = view.current;
      setLoadingThread(true);
      setMessages([]);
      let stored = null;
      let failure = null;
      try {
        const response = await fetch(`/api/v1/threads/${encodeURIComponent(id)}`);
        if (response.ok) stored = await response.json();
        else failure = response.status === 404 ? 'La conversación ya no existe.' : `Error ${response.status}`;
      } catch {
        failure = MESSAGES.network;
      }
      if (view.current !== mine) return;
      setLoadingThread(false);
      if (!stored) {
        thread.current = null;
        setThreadId(null);
        rememberThread(null);
        setAnnouncement(`No se pudo abrir la conversación: ${failure}`);
        return;
      }
      const { messages: shownMessages, running } = conversationFromThread(stored);
      thread.current = id;
      setThreadId(id);
      rememberThread(id);
      setMessages(shownMessages);
      setAnnouncement(`Conversación abierta: ${stored.title || 'sin título'}.`);
      if (running) attach(running);
    },
    [leave, attach],
  );

  // After a reload: the conversation this tab was in.
  useEffect(() => {
    const id = rememberedThread();
    if (id) open(id);
    // Only on the first load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A deleted conversation that is the one shown leaves an empty page.
  const forget = useCallback(
    (id) => {
      if (thread.current === id) reset();
      setThreadsVersion((v) => v + 1);
    },
    [reset],
  );

  const value = {
    messages, isLoading, streamingContent: shown.text, toolSteps: shown.steps, formingCalls: shown.forming ?? [],
    thinkingParts: shown.thinking,
    approvals: shown.approvals.filter((a) => !decided.has(a.tool_call_id)), decide,
    unavailable, omitted, announcement, send, stop, reset, open, forget, threadId, loadingThread, threadsVersion,
    openPanels, togglePanel, setAnnouncement,
  };
  return <ChatContext.Provider value={value}>{children}</ChatContext.Provider>;
}

export const useChatContext = () => useContext(ChatContext);
