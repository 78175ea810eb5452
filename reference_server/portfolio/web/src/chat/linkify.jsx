// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// portfolio_id patterns (e.g. SPA_25_001) become links to the initiative's page.
import { Children, cloneElement, isValidElement } from 'react';
import { Link } from '../router.jsx';

export const PORTFOLIO_ID = /\b[A-Z]{2,5}_\d{2}_\d{2,4}\b/g;

function linkifyText(text, keyPrefix) {
  const parts = [];
  let last = 0;
  for (const m of text.matchAll(PORTFOLIO_ID)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push(
      <Link key={`${keyPrefix}-${m.index}`} to={`/detail/${m[0]}`} className="pid-link">
        {m[0]}
      </Link>,
    );
    last = m.index + m[0].length;
  }
  if (last === 0) return text;
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

// Walks children: strings are linkified, elements other than code and links are descended into.
export function linkifyChildren(children, keyPrefix = 'pid') {
  return Children.map(children, (child, i) => {
    if (typeof child === 'string') return linkifyText(child, `${keyPrefix}-${i}`);
    // Links stay as they are: ours, and markdown's (which come through a component with an href, not as 'a').
    if (!isValidElement(child) || child.type === 'code' || child.type === 'pre' || child.type === Link ||
      child.props?.href !== undefined)
      return child;
    if (child.props?.children === undefined) return child;
    return cloneElement(child, undefined, linkifyChildren(child.props.children, `${keyPrefix}-${i}`));
  });
}
