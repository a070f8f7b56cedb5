/* global window, document, requestAnimationFrame */
// The browser end of the help-request latency measurement (scripts/perf-help.sh, driven by
// TestHelpLatency in internal/perf): headless Chromium signs in to the real console as one operator and
// stamps every 求助消息 dialog the moment its help view enters the DOM (a MutationObserver) and again two
// animation frames later (painted), then closes it so the next queued request can open.
//
//   node scripts/perf-help.mjs --base http://127.0.0.1:18700 --account perfhelp0000 --password perfhelp123
//
// Prints `READY` once the console's shell is up, then one `SEEN {"dom":…,"paint":…,"requestTime":"…"}`
// line per dialog (epoch milliseconds from performance.timeOrigin + performance.now(): the same clock
// as the driver's on this machine). Stops on `DONE` on stdin, stdin closing, or SIGTERM.
import { createInterface } from 'node:readline';
import { launch, VIEWPORT } from './perf-browser.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const base = args.base ?? 'http://127.0.0.1:18700';

const browser = await launch();
let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  await browser.close().catch(() => undefined);
  process.exit(code);
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(130));
createInterface({ input: process.stdin })
  .on('line', (l) => { if (l.trim() === 'DONE') void stop(0); })
  .on('close', () => void stop(0));

try {
  const ctx = await browser.newContext({ viewport: VIEWPORT, locale: 'zh-CN' });
  await ctx.addInitScript(() => {
    window.__help = [];
    const seen = new WeakSet();
    const now = () => performance.timeOrigin + performance.now();
    const scan = () => {
      for (const view of document.querySelectorAll('[data-testid="help-view"]')) {
        if (seen.has(view)) continue;
        seen.add(view);
        const rec = { dom: now(), paint: 0, requestTime: '', carNumber: '' };
        const cells = view.querySelectorAll('.ant-descriptions-item-content');
        rec.requestTime = (cells[1]?.textContent ?? '').trim();
        rec.carNumber = (cells[2]?.textContent ?? '').trim();
        window.__help.push(rec);
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            rec.paint = now();
            // close it: the console queues later requests until this one is closed
            view.closest('.ant-modal')?.querySelector('.ant-modal-close')?.click();
          }),
        );
      }
    };
    const observe = () => new window.MutationObserver(scan).observe(document.documentElement, { childList: true, subtree: true });
    if (document.documentElement) observe();
    else document.addEventListener('DOMContentLoaded', observe);
  });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  await page.goto(`${base}/#/login`);
  await page.locator('#account').fill(args.account ?? 'admin');
  await page.locator('#password').fill(args.password ?? 'admin123');
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/#\/home/, { timeout: 120_000 });
  await page.locator('.tw-header .tw-tiles').waitFor({ timeout: 120_000 });
  console.log('READY');

  let reported = 0;
  while (!stopping) {
    // the painted ones not reported yet, in order (a record is complete once painted)
    const recs = await page
      .evaluate((from) => {
        const out = [];
        for (const r of window.__help.slice(from)) {
          if (!r.paint) break;
          out.push(r);
        }
        return out;
      }, reported)
      .catch(() => []);
    for (const r of recs) console.log(`SEEN ${JSON.stringify(r)}`);
    reported += recs.length;
    await new Promise((r) => setTimeout(r, 100));
  }
} catch (err) {
  console.error(`perf-help browser: ${err.stack || err}`);
  await stop(1);
}
