// react-markdown + remark-gfm, with portfolio_id links in paragraphs, list
// items, table cells and bold (never in code), and chart images inline.
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { linkifyChildren } from './linkify.jsx';

const linkified = (Tag) =>
  function Linkified({ node, children, ...props }) {
    return <Tag {...props}>{linkifyChildren(children)}</Tag>;
  };

const components = {
  p: linkified('p'),
  li: linkified('li'),
  td: linkified('td'),
  th: linkified('th'),
  strong: linkified('strong'),
  em: linkified('em'),
  table: ({ node, ...props }) => (
    <div className="table-scroll">
      <table {...props} />
    </div>
  ),
  img: ({ node, src = '', alt = '', ...props }) => (
    // Charts come as /api/v1/charts/<file>.png on this same server.
    // Spans, not a figure: markdown puts images inside paragraphs.
    <span className="chart">
      <img src={src} alt={alt} {...props} />
      {alt && <span className="chart-caption">{alt}</span>}
    </span>
  ),
  a: ({ node, href = '', children, ...props }) => {
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
