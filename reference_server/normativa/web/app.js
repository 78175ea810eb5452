// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The page of agentio-normativa: questions to POST /api/rag-agent, its SSE
// answer streamed in (tool steps as pills, the text, then the sources), the
// conversation kept across reloads by its threadId (localStorage), and an API
// key asked for only when the server wants one (sessionStorage). No HTML is
// ever built from server text: everything goes through textContent.

import { readEvents } from './sse.js';
import { textBlocks, toolLabel, uniqueSources } from './format.js';

const THREAD_KEY = 'agentio-normativa.thread';
const API_KEY = 'agentio-normativa.api-key';
const BOE = 'Agencia Estatal Boletín Oficial del Estado';

const $ = (id) => document.getElementById(id);
const ui = {
  messages: $('messages'),
  empty: $('empty'),
  alert: $('alert'),
  status: $('status'),
  askForm: $('ask-form'),
  question: $('question'),
  ask: $('ask'),
  newConversation: $('new-conversation'),
  keyForm: $('key-form'),
  keyMessage: $('key-message'),
  apiKey: $('api-key'),
};

// Storage may be refused (privacy settings): the page then works without memory.
const stored = {
  get(area, key) {
    try {
      return window[area].getItem(key);
    } catch {
      return null;
    }
  },
  set(area, key, value) {
    try {
      window[area].setItem(key, value);
    } catch {
      /* not kept */
    }
  },
  remove(area, key) {
    try {
      window[area].removeItem(key);
    } catch {
      /* nothing kept */
    }
  },
};

let threadId = stored.get('localStorage', THREAD_KEY);
let running = null; // the AbortController of the answer in progress, or of the restore
let afterKey = null; // what to retry once an API key is given

function saveThread(id) {
  threadId = id;
  stored.set('localStorage', THREAD_KEY, id);
}

function forgetThread() {
  threadId = null;
  stored.remove('localStorage', THREAD_KEY);
}

function headers(extra = {}) {
  const key = stored.get('sessionStorage', API_KEY);
  return key ? { ...extra, 'x-api-key': key } : extra;
}

// The server's own words for a refusal ({"error": "..."}), else the status.
async function errorText(res) {
  try {
    const body = await res.json();
    if (body && typeof body.error === 'string' && body.error) return body.error;
  } catch {
    /* not JSON */
  }
  return `El servidor respondió con un error (${res.status}).`;
}

// --- what is announced ----------------------------------------------------------

function announce(text) {
  ui.status.textContent = text;
}

function showAlert(text) {
  ui.alert.textContent = text;
}

function clearAlert() {
  ui.alert.textContent = '';
}

function setBusy(busy) {
  ui.ask.disabled = busy;
}

// --- building the conversation -----------------------------------------------------

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const nearBottom = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 120;

// Keeps the end of the conversation in sight while it grows, unless the reader scrolled up.
function follow(change) {
  const atEnd = nearBottom();
  change();
  if (atEnd) window.scrollTo(0, document.documentElement.scrollHeight);
}

function updateEmpty() {
  ui.empty.hidden = ui.messages.children.length > 0;
}

function appendInline(parent, parts) {
  for (const part of parts) parent.append(part.strong ? el('strong', null, part.text) : part.text);
}

function renderAnswer(container, text) {
  const nodes = textBlocks(text).map((b) => {
    if (b.type === 'ul' || b.type === 'ol') {
      const list = el(b.type);
      for (const item of b.items) {
        const li = el('li');
        appendInline(li, item);
        list.append(li);
      }
      return list;
    }
    const p = el('p', b.type === 'h' ? 'subheading' : null);
    b.lines.forEach((line, i) => {
      if (i) p.append(el('br'));
      appendInline(p, line);
    });
    return p;
  });
  container.replaceChildren(...nodes);
}

// The user's text as typed: paragraphs at blank lines, line breaks kept by CSS.
function renderPlain(container, text) {
  const paragraphs = text.split(/\n[ \t]*\n/).filter((p) => p.trim() !== '');
  container.replaceChildren(...paragraphs.map((p) => el('p', null, p)));
}

function addQuestion(text) {
  const li = el('li', 'message user');
  li.append(el('h3', 'who', 'Su pregunta'));
  const body = el('div', 'text');
  renderPlain(body, text);
  li.append(body);
  follow(() => ui.messages.append(li));
  updateEmpty();
  return li;
}

function addSources(li, sources) {
  const list = uniqueSources(sources);
  if (list.length === 0) return;
  // Not a <section>: one region landmark per answer, all named "Fuentes", would blur the page's landmarks.
  const section = el('div', 'sources');
  const heading = el('h4', null, 'Fuentes');
  const ul = el('ul');
  for (const s of list) ul.append(el('li', null, s.label));
  const credit = el('footer', 'credit', 'Fuente: ');
  const link = el('a', null, BOE);
  link.href = 'https://www.boe.es/';
  link.rel = 'noopener';
  credit.append(link);
  section.append(heading, ul, credit);
  li.append(section);
}

// An answer bubble: live (streaming) or, for a stored conversation, filled at once.
function addAnswer(live) {
  const li = el('li', 'message assistant');
  li.append(el('h3', 'who', 'Respuesta'));
  const pills = el('ul', 'pills');
  pills.setAttribute('aria-label', 'Pasos de la consulta');
  pills.hidden = true;
  const body = el('div', 'text');
  if (live) {
    li.classList.add('live');
    // Read once complete rather than word by word.
    body.setAttribute('aria-live', 'polite');
    body.setAttribute('aria-busy', 'true');
    pills.hidden = false;
    pills.append(el('li', 'pill active', 'Preparando la respuesta…'));
  }
  li.append(pills, body);
  follow(() => ui.messages.append(li));
  updateEmpty();
  let text = '';
  const settle = () => {
    li.classList.remove('live');
    pills.hidden = true;
    body.setAttribute('aria-busy', 'false');
  };
  return {
    li,
    step(label) {
      const last = pills.lastElementChild;
      if (last?.textContent === label) return;
      // The first step replaces the placeholder; earlier steps stay, done.
      if (pills.children.length === 1 && last.textContent === 'Preparando la respuesta…') last.remove();
      for (const p of pills.children) p.classList.remove('active');
      follow(() => pills.append(el('li', 'pill active', label)));
    },
    append(piece) {
      text += piece;
      follow(() => renderAnswer(body, text));
    },
    finish(sources) {
      settle();
      pills.remove();
      if (text.trim() === '') body.replaceChildren(el('p', 'note', 'La respuesta llegó vacía.'));
      follow(() => addSources(li, sources));
    },
    fail() {
      settle();
      pills.remove();
      li.classList.add('failed');
      body.append(el('p', 'note', text.trim() === '' ? 'Sin respuesta: la consulta no se completó.'
        : 'Respuesta incompleta: la consulta no terminó.'));
    },
    fill(full, sources) {
      text = full;
      renderAnswer(body, text);
      this.finish(sources);
    },
  };
}

function clearConversation() {
  ui.messages.replaceChildren();
  updateEmpty();
}

// --- talking to the server ----------------------------------------------------------

function askForKey(message, retry) {
  afterKey = retry;
  ui.keyMessage.textContent = message;
  ui.keyForm.hidden = false;
  ui.apiKey.value = '';
  ui.apiKey.focus();
}

async function restore() {
  if (!threadId) return;
  const id = threadId;
  const controller = new AbortController();
  running = controller;
  setBusy(true);
  announce('Cargando la conversación guardada…');
  try {
    const res = await fetch(`/api/rag-agent/threads/${encodeURIComponent(id)}`, { headers: headers(), signal: controller.signal });
    if (res.status === 404) {
      forgetThread(); // gone from the server: start afresh, silently
      announce('');
      return;
    }
    if (res.status === 401) {
      const message = await errorText(res);
      announce('');
      askForKey(message, restore);
      return;
    }
    if (!res.ok) {
      showAlert(`No se pudo cargar la conversación guardada: ${await errorText(res)}`);
      return;
    }
    const view = await res.json();
    if (controller.signal.aborted) return;
    clearConversation();
    let unanswered = null;
    for (const m of Array.isArray(view.messages) ? view.messages : []) {
      if (m.role === 'user') {
        if (unanswered) addAnswer(false).fail();
        unanswered = addQuestion(String(m.text ?? ''));
      } else if (m.role === 'assistant') {
        addAnswer(false).fill(String(m.text ?? ''), m.sources);
        unanswered = null;
      }
    }
    if (unanswered) addAnswer(false).fail();
    announce(ui.messages.children.length ? 'Conversación recuperada.' : '');
  } catch {
    if (!controller.signal.aborted) showAlert('No se pudo cargar la conversación guardada: el servidor no responde.');
  } finally {
    if (running === controller) {
      running = null;
      setBusy(false);
    }
  }
}

async function ask(text) {
  clearAlert();
  const controller = new AbortController();
  running = controller;
  setBusy(true);
  const question = addQuestion(text);
  const answer = addAnswer(true);
  announce('Consultando…');
  // A question that never reached the model goes back to the box.
  const undo = () => {
    question.remove();
    answer.li.remove();
    updateEmpty();
    if (ui.question.value.trim() === '') ui.question.value = text;
  };
  try {
    let res;
    try {
      res = await fetch('/api/rag-agent', {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify(threadId ? { message: text, threadId } : { message: text }),
        signal: controller.signal,
      });
    } catch {
      if (controller.signal.aborted) return;
      undo();
      announce('');
      showAlert('No se pudo conectar con el servidor. Compruebe la conexión y vuelva a intentarlo.');
      return;
    }
    if (!res.ok) {
      const message = await errorText(res);
      undo();
      announce('');
      if (res.status === 401) {
        askForKey(message, send);
      } else if (res.status === 404 && threadId) {
        forgetThread();
        clearConversation();
        showAlert('La conversación anterior ya no existe en el servidor. Vuelva a enviar la pregunta: empezará una nueva.');
      } else {
        showAlert(message);
      }
      return;
    }
    let ended = false;
    try {
      await readEvents(res.body, ({ event, data }) => {
        let d;
        try {
          d = JSON.parse(data);
        } catch {
          return;
        }
        if (event === 'tool_status') {
          const label = toolLabel(d.tool, d.args);
          answer.step(label);
          announce(label);
        } else if (event === 'token') {
          answer.append(typeof d.text === 'string' ? d.text : '');
        } else if (event === 'done') {
          ended = true;
          if (typeof d.threadId === 'string' && d.threadId) saveThread(d.threadId);
          answer.finish(d.sources);
          announce('Respuesta completa.');
        } else if (event === 'error') {
          ended = true;
          answer.fail();
          announce('');
          showAlert(typeof d.message === 'string' && d.message ? d.message : 'La consulta falló.');
        }
      });
    } catch {
      /* the connection broke: said below */
    }
    if (!ended && !controller.signal.aborted) {
      answer.fail();
      announce('');
      showAlert('La respuesta se interrumpió: se perdió la conexión con el servidor.');
    }
  } finally {
    if (running === controller) {
      running = null;
      setBusy(false);
    }
  }
}

function send() {
  const text = ui.question.value;
  if (running) {
    announce('Espere a que termine la respuesta en curso.');
    return;
  }
  if (text.trim() === '') {
    ui.question.focus();
    return;
  }
  ui.question.value = '';
  ui.question.focus(); // also when the button was pressed: it is disabled while answering
  ask(text);
}

// --- events --------------------------------------------------------------------------------

ui.askForm.addEventListener('submit', (e) => {
  e.preventDefault();
  send();
});

ui.question.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || e.isComposing || e.keyCode === 229) return;
  e.preventDefault();
  send();
});

ui.newConversation.addEventListener('click', () => {
  if (running) running.abort();
  running = null;
  setBusy(false);
  forgetThread();
  clearConversation();
  clearAlert();
  ui.question.value = '';
  ui.question.focus();
  announce('Nueva conversación.');
});

ui.keyForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const key = ui.apiKey.value.trim();
  if (!key) {
    ui.apiKey.focus();
    return;
  }
  stored.set('sessionStorage', API_KEY, key);
  ui.apiKey.value = '';
  ui.keyForm.hidden = true;
  ui.question.focus();
  announce('Clave guardada para esta sesión.');
  const retry = afterKey;
  afterKey = null;
  retry?.();
});

updateEmpty();
ui.question.focus();
restore();
