// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The three routes need no router library: the History API, a context with
// the current path, and a Link that pushes instead of reloading. A page change
// also does what a full load would for assistive technology: a new document
// title, and the focus on the new page's heading (useRouteHeading).
import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';

const RouterContext = createContext({ path: '/', navigate: () => {}, navigations: 0 });

export function Router({ children }) {
  const [location, setLocation] = useState({ path: window.location.pathname, navigations: 0 });
  useEffect(() => {
    const onPop = () => setLocation((l) => ({ path: window.location.pathname, navigations: l.navigations + 1 }));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((to, { replace = false } = {}) => {
    if (to === window.location.pathname) return;
    window.history[replace ? 'replaceState' : 'pushState'](null, '', to);
    // A redirect (replace) is part of the same visit: it does not move the focus.
    setLocation((l) => ({ path: to, navigations: l.navigations + (replace ? 0 : 1) }));
    window.scrollTo(0, 0);
  }, []);
  const value = { path: location.path, navigations: location.navigations, navigate };
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export const useRouter = () => useContext(RouterContext);

/** Sets the window's title for the page shown: "<title> · Portfolio Digital". */
export function useDocumentTitle(title) {
  useEffect(() => {
    document.title = title ? `${title} · Portfolio Digital` : 'Portfolio Digital';
  }, [title]);
}

/** A ref for the page's h1 (give it tabIndex={-1}): focused when the page was reached by navigation. */
export function useRouteHeading() {
  const heading = useRef(null);
  const { navigations } = useRouter();
  useEffect(() => {
    if (navigations > 0) heading.current?.focus({ preventScroll: true });
    // Only on arrival: later renders of the same page keep the focus where the user put it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return heading;
}

export function Link({ to, children, ...rest }) {
  const { navigate } = useRouter();
  const onClick = (e) => {
    // Let the browser handle new tabs and windows.
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
