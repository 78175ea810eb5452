// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What the page shows, computed without the DOM (so node tests it too): the
// label of a tool step, the list of sources, and an answer's text cut into
// blocks. The answer is never parsed as HTML: blocks hold plain strings that
// app.js puts in elements with textContent.

/** "Buscando normativa…" for a `tool_status` event. */
export function toolLabel(tool, args) {
  const a = args && typeof args === 'object' ? args : {};
  switch (tool) {
    case 'search_normativa':
      return 'Buscando normativa…';
    case 'search_sentencias':
      return 'Buscando sentencias…';
    case 'get_article': {
      const n = String(a.article_number ?? '').trim();
      if (!n) return 'Consultando artículo…';
      if (/^\d/.test(n)) return `Consultando artículo ${n}…`;
      // "Disposición adicional décima" → "Consultando disposición adicional décima…"
      return `Consultando ${n.charAt(0).toLowerCase()}${n.slice(1)}…`;
    }
    case 'get_related_chunks':
      return 'Siguiendo referencias…';
    default:
      return `Consultando ${String(tool ?? 'herramienta')}…`;
  }
}

/** "Estatuto de los Trabajadores — Art. 48". */
export function sourceLabel(s) {
  const law = String(s?.law ?? '').trim();
  const section = String(s?.section ?? '').trim();
  return law && section ? `${law} — ${section}` : law || section;
}

/** The sources once each: a law's article found in several fragments is one source. */
export function uniqueSources(sources) {
  const seen = new Set();
  const out = [];
  for (const s of Array.isArray(sources) ? sources : []) {
    const label = sourceLabel(s);
    if (!label || seen.has(label)) continue;
    seen.add(label);
    out.push({ label, chapter: String(s.chapter ?? '').trim() });
  }
  return out;
}

/**
 * The answer as blocks: paragraphs (a blank line between them; single line
 * breaks kept), bullet and numbered lists, and headings. Inline: **bold**.
 *   [{type: 'p' | 'h', lines: [Inline[]]} | {type: 'ul' | 'ol', items: [Inline[]]}]
 * where Inline = {text, strong}.
 */
export function textBlocks(text) {
  const blocks = [];
  let current = null;
  for (const raw of String(text ?? '').replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    if (line.trim() === '') {
      current = null;
      continue;
    }
    const bullet = /^\s*[-*•]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ type: 'h', lines: [inline(heading[1])] });
      current = null;
    } else if (bullet || numbered) {
      const type = bullet ? 'ul' : 'ol';
      if (!current || current.type !== type) {
        current = { type, items: [] };
        blocks.push(current);
      }
      current.items.push((bullet ?? numbered)[1]);
    } else if (current && (current.type === 'ul' || current.type === 'ol')) {
      // A line under a list item without a blank line goes on with that item.
      current.items[current.items.length - 1] += ` ${line.trim()}`;
    } else if (current) {
      current.lines.push(line);
    } else {
      current = { type: 'p', lines: [line] };
      blocks.push(current);
    }
  }
  return blocks.map((b) =>
    b.type === 'ul' || b.type === 'ol'
      ? { type: b.type, items: b.items.map(inline) }
      : { type: b.type, lines: b.lines.map((l) => (Array.isArray(l) ? l : inline(l))) });
}

/** "a **b** c" → [{text: 'a '}, {text: 'b', strong: true}, {text: ' c'}]; an unclosed ** stays as text. */
export function inline(line) {
  const out = [];
  const re = /\*\*(?=\S)(.+?)\*\*/g;
  let last = 0;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (m.index > last) out.push({ text: line.slice(last, m.index), strong: false });
    out.push({ text: m[1], strong: true });
    last = m.index + m[0].length;
  }
  if (last < line.length) out.push({ text: line.slice(last), strong: false });
  return out;
}
