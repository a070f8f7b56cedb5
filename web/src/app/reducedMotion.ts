import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function media(): MediaQueryList | undefined {
  return typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(QUERY) : undefined;
}

function subscribe(onChange: () => void): () => void {
  const m = media();
  m?.addEventListener?.('change', onChange);
  return () => m?.removeEventListener?.('change', onChange);
}

function snapshot(): boolean {
  return !!media()?.matches;
}

/**
 * The operating system's "reduce motion" setting, followed while the console is open. antd's zooms and
 * slides are turned off with it (Providers), as the cockpit's ticker already was: a dialog then opens and
 * closes at once, and its buttons work from the first frame.
 */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false);
}
