// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// A Server-Sent Events parser for a fetch() body (EventSource cannot POST).
// It follows the HTML standard's rules: lines end in \r\n, \n or \r; a blank
// line dispatches; `data:` lines join with \n; one space after the colon is
// dropped; comments (":…") and unknown fields are ignored; an event cut off
// by the end of the stream is discarded. Text may arrive cut anywhere, even
// between the \r and \n of one line end.

export class SseParser {
  /** @param {(event: {event: string, data: string, id: string}) => void} onEvent */
  constructor(onEvent) {
    this.onEvent = onEvent;
    this.buffer = '';
    this.event = '';
    this.data = [];
    this.lastId = '';
    this.started = false;
  }

  /** Feeds decoded text (a TextDecoder's output, in stream mode). */
  push(text) {
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.buffer += text;
    let start = 0;
    for (;;) {
      let end = start;
      while (end < this.buffer.length && this.buffer[end] !== '\n' && this.buffer[end] !== '\r') ++end;
      if (end === this.buffer.length) break;
      // A lone \r at the very end may be the first half of \r\n: wait for the next piece.
      if (this.buffer[end] === '\r' && end + 1 === this.buffer.length) break;
      this.#line(this.buffer.slice(start, end));
      start = end + (this.buffer[end] === '\r' && this.buffer[end + 1] === '\n' ? 2 : 1);
    }
    this.buffer = this.buffer.slice(start);
  }

  /** The stream ended: a last line ended by a lone \r still counts; an undispatched event does not. */
  end() {
    if (this.buffer.endsWith('\r')) this.#line(this.buffer.slice(0, -1));
    this.buffer = '';
    this.event = '';
    this.data = [];
  }

  #line(line) {
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastId = value;
  }

  #dispatch() {
    const event = this.event || 'message';
    const data = this.data;
    this.event = '';
    this.data = [];
    if (data.length === 0) return;
    this.onEvent({ event, data: data.join('\n'), id: this.lastId });
  }
}

/**
 * Reads a fetch Response body as SSE, calling onEvent for each event.
 * Resolves when the body ends; rejects if reading fails (or is aborted).
 */
export async function readEvents(body, onEvent) {
  const parser = new SseParser(onEvent);
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.push(value);
  }
  parser.end();
}
