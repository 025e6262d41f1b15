/** A small history-API router for the operator UI (every page lives under /admin/). */
import { useEffect, useState } from 'preact/hooks';
import type { ComponentChildren, JSX } from 'preact';

const listeners = new Set<() => void>();

export function navigate(to: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const l of listeners) l();
}

window.addEventListener('popstate', () => {
  for (const l of listeners) l();
});

export interface Location {
  path: string;
  query: URLSearchParams;
}

export function useLocation(): Location {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
}

/** Replaces the query string of the current page (filters), keeping the path. */
export function setQuery(values: Record<string, string | undefined>): void {
  const query = new URLSearchParams(window.location.search);
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === '') query.delete(k);
    else query.set(k, v);
  }
  const q = query.toString();
  navigate(`${window.location.pathname}${q ? `?${q}` : ''}`, { replace: true });
}

export function Link({
  href,
  children,
  class: className,
  ...rest
}: { href: string; children: ComponentChildren; class?: string } & JSX.HTMLAttributes<HTMLAnchorElement>) {
  return (
    <a
      href={href}
      class={className}
      onClick={(e) => {
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        navigate(href);
      }}
      {...rest}
    >
      {children}
    </a>
  );
}

/** Matches `/admin/matches/:id` style patterns; returns the parameters or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i]!.startsWith(':')) params[p[i]!.slice(1)] = decodeURIComponent(s[i]!);
    else if (p[i] !== s[i]) return null;
  }
  return params;
}
