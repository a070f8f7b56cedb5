// End-to-end suite runner: `npm run e2e` (from web/) or `make test-e2e` (repo root, builds first).
// Runs e2e/*.test.mjs with node:test, one file at a time; each file starts its own
// `tankwatch serve --demo` (fresh data dir, free port) and drives Debian's Chromium via playwright-core.
// Optional arguments filter the files by substring: `npm run e2e -- login tabs`.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BINARY, CHROMIUM, RESULTS_DIR } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

if (!existsSync(BINARY)) {
  console.error(`e2e: ${BINARY} is missing. Build it first: \`make build\` from the repo root (or \`make test-e2e\`).`);
  process.exit(2);
}
if (!existsSync(CHROMIUM)) {
  console.error(`e2e: Chromium not found at ${CHROMIUM}. Install it (apt-get install -y chromium) or set TANKWATCH_CHROMIUM.`);
  process.exit(2);
}

const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
  .map((f) => path.join('e2e', f));
if (files.length === 0) {
  console.error(`e2e: no test files match ${filters.join(' ')}`);
  process.exit(2);
}

rmSync(RESULTS_DIR, { recursive: true, force: true });
const started = Date.now();
const child = spawn(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
  cwd: path.resolve(here, '..'),
  stdio: 'inherit',
});
const forward = (sig) => () => child.kill(sig);
process.on('SIGINT', forward('SIGINT'));
process.on('SIGTERM', forward('SIGTERM'));
child.on('exit', (code, signal) => {
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const failed = code !== 0;
  console.log(`e2e: ${files.length} file(s) in ${secs} s — ${failed ? `FAILED (exit ${code ?? signal})` : 'passed'}`);
  if (failed) console.log(`e2e: screenshots and console logs of failed tests are in ${RESULTS_DIR}`);
  process.exit(code ?? 1);
});
