import { afterEach, vi } from 'vitest';

// The dom project runs its files one after another in a worker, in one jsdom (test.isolate false in
// vite.config.ts, DECISIONS D85): the libraries Node has loaded (antd, React) and the jsdom window are
// kept, which is most of a file's start-up. What vitest resets between the files of an isolated run is
// reset here, before the file under test loads anything: every module the runner evaluated (the
// console's own code is evaluated afresh, so its stores and caches start empty) and the module mocks
// (each file's vi.mock applies to its own imports only). Then the browser state a file may leave.
// Everything else is imported after the reset, so that it is the instance the file under test gets
// (testing-library's configure() below would otherwise set up a copy the file never sees).
resetBetweenFiles();
const { cleanup, configure } = await import('@testing-library/react');
afterEach(() => cleanup());

function resetBetweenFiles() {
  type Node = { promise?: unknown; exports?: unknown; evaluated?: boolean; importers: Set<string> };
  const g = globalThis as unknown as {
    __vitest_mocker__?: { reset(): void };
    __vitest_worker__?: { evaluatedModules?: { idToModuleMap?: Map<string, Node> } };
  };
  const modules = g.__vitest_worker__?.evaluatedModules?.idToModuleMap;
  if (!g.__vitest_mocker__ || !modules) {
    // never run a file on top of another's modules: a vitest without these internals needs isolate: true
    throw new Error('src/test/setup.ts: vitest no longer exposes its module runner state; set isolate: true for the dom project in vite.config.ts');
  }
  g.__vitest_mocker__.reset();
  const keep = [/\/vitest\/dist\//, /vitest-virtual-\w+\/dist/, /@vitest\/dist/, /\/src\/test\/setup\.ts$/];
  modules.forEach((node, id) => {
    if (keep.some((re) => re.test(id))) return;
    node.promise = undefined;
    node.exports = undefined;
    node.evaluated = false;
    node.importers.clear();
  });
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  localStorage.clear();
  sessionStorage.clear();
  document.body.innerHTML = '';
  document.title = '';
  window.history.replaceState(null, '', '/');
}

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

