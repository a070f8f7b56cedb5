import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

afterEach(() => cleanup());

// antd renders validation and messages asynchronously; on a busy two-core machine (CI runs test files
// side by side) that can take longer than testing-library's default second.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks these; antd needs them.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false, media: query, onchange: null,
      addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false,
    }),
  });
}
if (!('ResizeObserver' in window)) {
  class RO { observe() {} unobserve() {} disconnect() {} }
  (window as unknown as { ResizeObserver: typeof RO }).ResizeObserver = RO;
}
const origGetComputedStyle = window.getComputedStyle;
window.getComputedStyle = (elt: Element, pseudo?: string | null) => origGetComputedStyle(elt, pseudo ? undefined : pseudo);

// Tests run in simplified Chinese unless they switch (jsdom's navigator.language is en-US).
localStorage.setItem('lang', 'zh-CN');

const { initI18n, ensureAllTexts } = await import('../i18n');
await initI18n();
await import('../i18n/dayjsLocale'); // as the signed-in console has it (app/ConsoleRoot.tsx)
await ensureAllTexts(); // pages are tested as the router shows them: with all texts

