// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Reads a text/event-stream body from fetch(): `onEvent({type, data, id?})`
// for each event, as the WHATWG rules frame them (LF, CR or CRLF line ends, a
// blank line dispatches, `data` lines joined by "\n", comments ignored, the
// last `id` seen goes with every later event). Resolves with whether the
// stream ended on an event boundary.
export async function readEventStream(body, onEvent) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let type = '';
  let data = [];
  let id = ''; // the last event ID: where a reader that lost the stream starts again
  const line = (text) => {
    if (text === '') {
      if (data.length) onEvent({ type: type || 'message', data: data.join('\n'), ...(id && { id }) });
      type = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
  };
  for (;;) {
    const { value, done } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    // A CR at the very end may be half of a CRLF: keep it for the next read.
    for (;;) {
      const m = buffer.match(/\r\n|\r(?!$)|\n/);
      if (!m) break;
      line(buffer.slice(0, m.index));
      buffer = buffer.slice(m.index + m[0].length);
    }
    if (done) {
      if (buffer.endsWith('\r')) line(buffer.slice(0, -1));
      return buffer === '' && data.length === 0;
    }
  }
}
