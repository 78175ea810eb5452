// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What of the conversation goes back to the server with a new question. The
// server keeps nothing between requests and refuses a conversation over its
// limits (POST /api/v1/agent/chat: 422), so the page sends the newest part
// that fits; the screen keeps everything.

/** The server's limits (reference_server/portfolio/src/agent/chat.hpp, chat_limits). */
export const SERVER_LIMITS = Object.freeze({
  maxMessages: 100,
  maxMessageBytes: 32 * 1024,
  maxTotalBytes: 256 * 1024,
});

const encoder = new TextEncoder();
const byteLength = (text) => encoder.encode(text).length;

// The longest start of `text` within `max` UTF-8 bytes, whole code points only.
function cutToBytes(text, max) {
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = ch.codePointAt(0) < 0x80 ? 1 : ch.codePointAt(0) < 0x800 ? 2 : ch.codePointAt(0) < 0x10000 ? 3 : 4;
    if (bytes + size > max) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

const CUT_MARK = '\n\n[…]';

/**
 * The messages to send: only what was really said (an assistant turn that
 * failed or was stopped before any text is left out, and so are the page's
 * own notices), newest first until a limit would be passed, starting with a
 * user message as the providers require. An answer longer than the server
 * takes for one message goes cut, marked "[…]".
 *
 * @param {{role: 'user'|'assistant', content: string}[]} messages oldest first, the new question last
 * @returns {{messages: {role: string, content: string}[], dropped: number}} what to send, and how
 *   many earlier messages were left out for the limits
 */
export function historyForServer(messages, limits = SERVER_LIMITS) {
  const said = messages
    .filter((m) => m.role === 'user' || (m.role === 'assistant' && m.content.trim() !== ''))
    .map(({ role, content }) =>
      role === 'assistant' && byteLength(content) > limits.maxMessageBytes
        ? { role, content: cutToBytes(content, limits.maxMessageBytes - byteLength(CUT_MARK)) + CUT_MARK }
        : { role, content },
    );
  const kept = [];
  let bytes = 0;
  for (let i = said.length - 1; i >= 0; --i) {
    const size = byteLength(said[i].content);
    // The newest question always goes, even alone over the limit: the server names the problem.
    if (kept.length > 0 && (kept.length + 1 > limits.maxMessages || bytes + size > limits.maxTotalBytes)) break;
    kept.unshift(said[i]);
    bytes += size;
  }
  while (kept.length > 1 && kept[0].role !== 'user') kept.shift();
  return { messages: kept, dropped: said.length - kept.length };
}

/** The size of a question in the server's unit (UTF-8 bytes). */
export const questionBytes = byteLength;
