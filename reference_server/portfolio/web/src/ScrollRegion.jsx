// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// A box that scrolls sideways (wide tables). When its content overflows it
// becomes a labelled tab stop, so the keyboard can scroll it too (WCAG 2.1.1);
// when it fits it stays out of the tab order.
import { useEffect, useRef, useState } from 'react';

export default function ScrollRegion({ label, children }) {
  const box = useRef(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = box.current;
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    const watch = new ResizeObserver(measure);
    watch.observe(el);
    if (el.firstElementChild) watch.observe(el.firstElementChild);
    measure();
    return () => watch.disconnect();
  }, []);
  return (
    <div
      ref={box}
      className="table-scroll"
      {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': `${label} (desplazable)` } : {})}
    >
      {children}
    </div>
  );
}
