import { act, render, renderHook, screen } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from './Providers';
import { usePrefersReducedMotion } from './reducedMotion';

const original = window.matchMedia;

/** A matchMedia whose "reduce motion" answer the test sets, telling its listeners as a browser does. */
function fakeSystem(reduce: boolean) {
  const listeners = new Set<() => void>();
  const state = { reduce };
  window.matchMedia = ((query: string) => ({
    get matches() {
      return query === '(prefers-reduced-motion: reduce)' && state.reduce;
    },
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
  return {
    set(next: boolean) {
      state.reduce = next;
      act(() => listeners.forEach((fn) => fn()));
    },
  };
}

function Motion() {
  const { token } = theme.useToken();
  return <span data-testid="motion">{String(token.motion)}</span>;
}

describe('reduced motion', () => {
  afterEach(() => {
    window.matchMedia = original;
  });

  it('follows the system setting while the page is open', () => {
    const system = fakeSystem(false);
    const { result } = renderHook(() => usePrefersReducedMotion());
    expect(result.current).toBe(false);
    system.set(true);
    expect(result.current).toBe(true);
    system.set(false);
    expect(result.current).toBe(false);
  });

  it('turns antd’s animations off under the console, and on again when the setting is cleared', () => {
    const system = fakeSystem(true);
    render(
      <Providers>
        <Motion />
      </Providers>,
    );
    expect(screen.getByTestId('motion').textContent).toBe('false');
    system.set(false);
    expect(screen.getByTestId('motion').textContent).toBe('true');
  });
});
