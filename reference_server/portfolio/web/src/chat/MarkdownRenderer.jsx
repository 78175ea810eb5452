// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// react-markdown + remark-gfm, with portfolio_id links in paragraphs, list
// items, table cells and bold (never in code), and chart images inline.
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { Link } from '../router.jsx';
import ScrollRegion from '../ScrollRegion.jsx';
import { linkifyChildren } from './linkify.jsx';

const linkified = (Tag) =>
  function Linkified({ node, children, ...props }) {
    return <Tag {...props}>{linkifyChildren(children)}</Tag>;
  };

// A wide table's region is named by its columns, so a list of regions tells them apart.
function tableLabel(node) {
  const cells = [];
  const walk = (n) => {
    if (cells.length >= 3 || !n) return;
    if (n.type === 'element' && n.tagName === 'th') {
      const text = [];
      const collect = (c) => (c.type === 'text' ? text.push(c.value) : c.children?.forEach(collect));
      collect(n);
      cells.push(text.join('').trim());
      return;
    }
    n.children?.forEach(walk);
  };
  walk(node);
  return cells.filter(Boolean).length ? `Tabla: ${cells.filter(Boolean).join(', ')}` : 'Tabla';
}

// The model's headings sit under the page's h1 and each message's h2.
const shifted = (Tag) =>
  function Shifted({ node, ...props }) {
    return <Tag {...props} />;
  };

const components = {
  h1: shifted('h3'),
  h2: shifted('h4'),
  h3: shifted('h5'),
  h4: shifted('h6'),
  h5: shifted('h6'),
  h6: shifted('h6'),
  p: linkified('p'),
  li: linkified('li'),
  td: linkified('td'),
  th: linkified('th'),
  strong: linkified('strong'),
  em: linkified('em'),
  table: ({ node, ...props }) => (
    <ScrollRegion label={tableLabel(node)}>
      <table {...props} />
    </ScrollRegion>
  ),
  img: ({ node, src = '', alt = '', ...props }) => (
    // Charts come as /api/v1/charts/<file>.png on this same server.
    // Spans, not a figure: markdown puts images inside paragraphs.
    <span className="chart">
      <img src={src} alt={alt} {...props} />
      {/* The caption repeats the alt text for the eyes only. */}
      {alt && (
        <span className="chart-caption" aria-hidden="true">
          {alt}
        </span>
      )}
    </span>
  ),
  a: ({ node, href = '', children, ...props }) => {
    // A path on this site goes through the router: a full load would lose the conversation.
    if (href.startsWith('/') && !href.startsWith('//'))
      return (
        <Link to={href} {...props}>
          {children}
        </Link>
      );
    const external = /^https?:\/\//.test(href);
    return (
      <a href={href} {...(external ? { target: '_blank', rel: 'noreferrer' } : {})} {...props}>
        {children}
      </a>
    );
  },
};

export default function MarkdownRenderer({ text }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
