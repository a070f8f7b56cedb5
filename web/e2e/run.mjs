// End-to-end suite runner: `npm run e2e` (from web/) or `make test-e2e` (repo root, builds first).
// Runs e2e/*.test.mjs with node:test, three files at a time (E2E_CONCURRENCY, default 3; 1 runs them one
// after another); each file runs in its own process and starts its own `tankwatch serve --demo` (fresh
// data dir, free port) and drives Debian's Chromium via playwright-core, so files share nothing but the
// machine. The files that wait longest for the demo fleet start first, so that the short ones fill the
// other slot meanwhile (DECISIONS D49).
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

// The longest files (they wait for the demo fleet's loads, unloads and alarms), longest first; every
// other file follows in name order. Only the order changes with this list, never what runs.
const LONGEST_FIRST = [
  'alarms.test.mjs', 'pages.test.mjs', 'carEvents.test.mjs', 'tankEvents.test.mjs', 'levelCockpit.test.mjs', 'tankMonitor.test.mjs',
  'help.test.mjs', 'hydtrend.test.mjs', 'ingest.test.mjs', 'stations.test.mjs', 'tankInfo.test.mjs',
];
// Files whose server alone keeps both cores busy (alarms: 200 trucks at 600×) run by themselves, first,
// so that they neither slow another file's page into its timeouts nor are slowed by it.
const ALONE = ['alarms.test.mjs'];
const rank = (f) => (LONGEST_FIRST.includes(f) ? LONGEST_FIRST.indexOf(f) : LONGEST_FIRST.length);

// 3: the files mostly wait (on the demo fleet, on pages drawing): 46 files, three at a time beside two
// building helpers (load average 15–19), used 760 s of CPU in 914 s (PERFORMANCE.md)
const concurrency = Number(process.env.E2E_CONCURRENCY ?? 3);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`e2e: E2E_CONCURRENCY must be a whole number ≥ 1, not ${process.env.E2E_CONCURRENCY}`);
  process.exit(2);
}

const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  .map((f) => path.join('e2e', f));
if (files.length === 0) {
  console.error(`e2e: no test files match ${filters.join(' ')}`);
  process.exit(2);
}

rmSync(RESULTS_DIR, { recursive: true, force: true });
const started = Date.now();
const running = new Set();
const results = [];
let next = 0;
let stopping = false;

// One `node --test <file>` per file (node --test sorts the files it is given, which would lose the
// order above). Each file's report is printed whole when the file ends, so two files never interleave.
function runFile(file) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    let out = '';
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], {
      cwd: path.resolve(here, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('exit', (code, signal) => {
      running.delete(child);
      const secs = (Date.now() - t0) / 1000;
      process.stdout.write(out.endsWith('\n') || out === '' ? out : `${out}\n`);
      console.log(`e2e: ${file} ${code === 0 ? 'passed' : `FAILED (exit ${code ?? signal})`} in ${secs.toFixed(1)} s`);
      results.push({ file, secs, ok: code === 0 });
      resolve();
    });
  });
}

const forward = (sig) => () => {
  stopping = true;
  for (const c of running) c.kill(sig);
};
process.on('SIGINT', forward('SIGINT'));
process.on('SIGTERM', forward('SIGTERM'));

const alone = files.filter((f) => ALONE.includes(path.basename(f)));
const shared = files.filter((f) => !alone.includes(f));
for (const f of alone) if (!stopping) await runFile(f);
async function worker() {
  while (!stopping && next < shared.length) await runFile(shared[next++]);
}
await Promise.all(Array.from({ length: Math.min(concurrency, shared.length) }, worker));
// A file that failed beside another is run once more, alone (E2E_RETRY, default 1; 0 turns it off): on
// the two CI cores, a page under another file's load has missed a 15 s action now and then (a modal's
// button clicked during its animation, before D133 turned antd's motion off there). Its first failure
// stays printed above; a file that fails alone
// too fails the run, and one that passes alone is named FLAKY in the summary (DECISIONS D59).
const retries = Number(process.env.E2E_RETRY ?? 1);
const flaky = [];
for (let round = 0; round < retries && !stopping; round++) {
  const again = results.filter((r) => !r.ok);
  if (again.length === 0) break;
  for (const r of again) {
    if (stopping) break;
    console.log(`e2e: ${r.file} failed beside another file: running it again, alone`);
    results.splice(results.indexOf(r), 1);
    await runFile(r.file);
    if (results.at(-1).ok) flaky.push(r.file);
  }
}
const secs = ((Date.now() - started) / 1000).toFixed(1);
const failed = results.filter((r) => !r.ok);
if (flaky.length) console.log(`e2e: FLAKY — failed beside another file, passed alone: ${flaky.join(', ')}`);
console.log('e2e: time per file (s):', results.toSorted((a, b) => b.secs - a.secs).map((r) => `${path.basename(r.file, '.test.mjs')} ${r.secs.toFixed(1)}`).join(', '));
console.log(`e2e: ${results.length} file(s), ${concurrency} at a time, in ${secs} s — ${failed.length || stopping ? `FAILED (${failed.map((r) => r.file).join(', ') || 'interrupted'})` : 'passed'}`);
if (failed.length) console.log(`e2e: screenshots and console logs of failed tests are in ${RESULTS_DIR}`);
process.exit(failed.length || stopping || results.length < files.length ? 1 : 0);
