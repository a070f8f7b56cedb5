// Shared helpers for the end-to-end tests: the real tankwatch binary + Debian's Chromium via playwright-core.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const WEB_DIR = path.resolve(here, '..');
export const BINARY = path.resolve(WEB_DIR, '..', 'bin', 'tankwatch');
export const RESULTS_DIR = path.join(WEB_DIR, 'test-results');
export const CHROMIUM = process.env.TANKWATCH_CHROMIUM || '/usr/bin/chromium';
const FORBIDDEN_PORTS = new Set([8080, 1883, 4222, 5432, 6379]);

export const CJK = /[\u3400-\u9fff]/;

/** A free TCP port on 127.0.0.1 (listen on :0, read it, close). */
export async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const srv = net.createServer();
      srv.unref();
      srv.on('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address();
        srv.close(() => resolve(port));
      });
    });
    if (!FORBIDDEN_PORTS.has(port)) return port;
  }
}

const liveServers = new Set();
process.on('exit', () => {
  for (const s of liveServers) {
    try { s.child.kill('SIGKILL'); } catch { /* already gone */ }
    try { rmSync(s.dataDir, { recursive: true, force: true }); } catch { /* ignore */ }
  }
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

/**
 * Starts `tankwatch serve --demo` on a fresh data dir and a free port; resolves once GET /readyz is 200.
 * Returns { base, output(), stop() }.
 */
export async function startServer(extraArgs = []) {
  // the run starts two files at a time: another file's server may take the free port found here before
  // this one binds it, so a bind failure is tried again on another port
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(extraArgs);
    } catch (err) {
      if (attempt === 3 || !/address already in use/i.test(String(err?.message))) throw err;
    }
  }
}

async function startServerOnce(extraArgs) {
  if (!existsSync(BINARY)) {
    throw new Error(`tankwatch binary not found at ${BINARY}; run \`make build\` first (from the repo root).`);
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tankwatch-e2e-'));
  const port = await freePort();
  const addr = `127.0.0.1:${port}`;
  const base = `http://${addr}`;
  let out = '';
  const child = spawn(BINARY, ['serve', '--demo', '--data', dataDir, '--http', addr, '--jt808', '127.0.0.1:0', '--jt1078', '127.0.0.1:0', '--demo-vehicles', '40', '--demo-history-cars', '8', '--map-tiles', 'none', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TANKWATCH_DB: '' },
  });
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  let exited = null;
  const exitPromise = new Promise((resolve) => child.on('exit', (code, signal) => { exited = { code, signal }; resolve(); }));
  const server = { child, dataDir };
  liveServers.add(server);

  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exitPromise;
      clearTimeout(t);
    }
    rmSync(dataDir, { recursive: true, force: true });
    liveServers.delete(server);
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`tankwatch exited (${JSON.stringify(exited)}) before it was ready. Output:\n${out}`);
    }
    try {
      const r = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`tankwatch not ready on ${base}/readyz within 30 s. Output:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, output: () => out, stop };
}

export const BROWSER_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * A browser context as the tests use it: a 1440 px laptop, and the system's "reduce motion" on, which the
 * console follows by turning antd's animations off (src/app/reducedMotion.ts). A dialog's button then works
 * from the frame the dialog appears in: under the other files' load, a click during the opening zoom was
 * lost now and then and the dialog stayed open (DECISIONS D133). `{ reducedMotion: 'no-preference' }` for
 * a test of the animations themselves.
 */
export async function newContext(env, { locale = 'zh-CN', reducedMotion = 'reduce' } = {}) {
  const context = await env.browser.newContext({ locale, baseURL: env.base, viewport: { width: 1440, height: 900 }, reducedMotion });
  context.setDefaultTimeout(15_000); // generous: the machine may be busy building
  return context;
}

export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set TANKWATCH_CHROMIUM)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
}

/**
 * The running demo fleet's live pushes (alarms of levels I–II, help requests) open 系统信息 / 求助消息
 * dialogs at random moments; a test of another page closes them whenever they would be in its way.
 * Tests of the dialogs themselves pass `{ liveDialogs: 'keep' }` to env.page.
 */
export async function dismissLiveDialogs(page, { only, except } = {}) {
  // one live dialog at a time (help requests first): a test of the 求助消息 dialog closes the 系统信息
  // ones that would otherwise keep its request waiting behind them ({ only: 'system' }); a test of one
  // message closes every live dialog but the one holding its text ({ except: text })
  const titles = only === 'system' ? /系统信息|系統資訊|System message/ : /系统信息|求助消息|系統資訊|求助訊息|System message|Help request/;
  let dialog = page.locator('.ant-modal-wrap').filter({ has: page.locator('.ant-modal-confirm-title', { hasText: titles }) });
  if (except) dialog = dialog.filter({ hasNotText: except });
  // the last one is on top (a 系统信息 may open over a 求助消息). A dialog with more messages waiting
  // shows the next one in its place when closed, so the handler does not wait for it to be hidden
  // (noWaitAfter): the interrupted action retries and the handler runs again while one is showing.
  await page.addLocatorHandler(dialog.last(), async (d) => {
    const close = d.locator('.ant-modal-close');
    // a dialog that is already closing (its button no longer visible) needs nothing more
    const button = (await close.count()) ? close.first() : d.locator('.ant-modal-confirm-btns button').last();
    await button.click({ timeout: 2000 }).catch(() => {});
  }, { noWaitAfter: true });
}

/**
 * Per test-file fixture: one server and one browser for the file (started in `before`, stopped in
 * `after` even on failure). Tests call `env.page(t, fn, { locale })` for a fresh context each.
 */
export function setup({ args = [] } = {}) {
  const env = { server: null, browser: null, base: '' };
  before(async () => {
    env.server = await startServer(args);
    env.base = env.server.base;
    env.browser = await launchBrowser();
  });
  after(async () => {
    try { await env.browser?.close(); } catch { /* ignore */ }
    await env.server?.stop();
  });
  /** Runs fn(page, ctx) in a fresh context; on failure saves a screenshot + console log to web/test-results/. */
  env.page = async (t, fn, { locale = 'zh-CN', liveDialogs = 'dismiss', reducedMotion } = {}) => {
    const context = await newContext(env, { locale, reducedMotion });
    const page = await context.newPage();
    if (liveDialogs === 'dismiss') await dismissLiveDialogs(page);
    const log = [];
    page.on('console', (m) => log.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => log.push(`[pageerror] ${e.stack || e.message}`));
    page.on('requestfailed', (r) => log.push(`[requestfailed] ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
    try {
      await fn(page, context);
    } catch (err) {
      try {
        mkdirSync(RESULTS_DIR, { recursive: true });
        const name = t.name.replace(/[^\w.-]+/g, '_').slice(0, 80);
        const file = path.basename(process.argv[1] ?? 'e2e', '.mjs');
        const stem = path.join(RESULTS_DIR, `${file}--${name}`);
        await page.screenshot({ path: `${stem}.png`, fullPage: true }).catch(() => undefined);
        writeFileSync(`${stem}.console.log`, `${log.join('\n')}\n\n--- server output (tail) ---\n${env.server.output().slice(-8000)}`);
      } catch { /* best effort */ }
      throw err;
    } finally {
      await context.close().catch(() => undefined);
    }
  };
  return env;
}

/** POST/GET JSON against the server from Node; returns the parsed envelope and status. */
export async function api(base, method, url, { token, body, lang = 'zh-CN' } = {}) {
  const r = await fetch(base + url, {
    method,
    headers: {
      'Content-Type': 'application/json',
      'Accept-Language': lang,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let json;
  try { json = JSON.parse(text); } catch { json = { raw: text }; }
  return { status: r.status, body: json };
}

/** Signs in through the API; returns the session (with access_token). Throws on failure. */
export async function apiLogin(base, account, password) {
  const { status, body } = await api(base, 'POST', '/authority-app/logIn', { body: { account, password, type: 0 } });
  if (status !== 200 || body.code !== 1) throw new Error(`API login ${account} failed: ${status} ${JSON.stringify(body)}`);
  return body.data;
}

/** Fills the login form and submits (does not wait for the outcome). */
export async function submitLogin(page, account, password) {
  await page.goto('/#/login');
  const user = page.locator('#account');
  await user.waitFor();
  await user.fill(account);
  await page.locator('#password').fill(password);
  await page.locator('form button[type="submit"]').click();
}

/** Signs in through the login page and waits for the shell on /#/home. */
export async function uiLogin(page, account, password) {
  await submitLogin(page, account, password);
  await page.waitForURL(/#\/home$/);
  await page.locator('.tw-header .tw-tiles').waitFor();
}

/**
 * The content pane once the page at `path` (e.g. '/police/policeMsg') is the one shown. After a menu click the
 * hash changes at once, but the previous page stays on screen until React has rendered the new one (seen
 * taking seconds on a loaded machine), so a locator that is not scoped to this pane can be satisfied by the
 * previous page. Wait with this, then look inside it.
 */
export async function waitForPage(page, path) {
  await page.waitForURL((u) => u.hash === `#${path}` || u.hash.startsWith(`#${path}?`));
  const pane = page.locator(`.tw-content[data-path="${path}"]`);
  await pane.waitFor();
  return pane;
}

/**
 * Visible message text containing `text`: an antd message/notification, or the login page's error line
 * (the sign-in page has no antd, so a refused sign-in is said there: DECISIONS D83).
 */
export function toast(page, text) {
  return page.locator('.ant-message-notice-content, .ant-notification-notice, .tw-login-error[role="alert"]').filter({ hasText: text });
}

/**
 * Runs act (a click and what it awaits after, such as the answer) while watching for the toast with text.
 * A toast lasts 3 s, and on a loaded machine reading the answer after the click took longer than that
 * (tankInfo, CI of stop 39): a toast looked for only afterwards could be gone. Returns act's result.
 */
export async function toastDuring(page, text, act) {
  const shown = toast(page, text).last().waitFor();
  shown.catch(() => {}); // awaited below; not an unhandled rejection when act throws first
  const out = await act();
  await shown;
  return out;
}

/** The login page's error line with `text` (a refused sign-in, no answer from the server). */
export function loginError(page, text) {
  return page.locator('.tw-login-error[role="alert"]').filter({ hasText: text });
}

/** How many style elements antd's CSS-in-JS has put in the page (none on the login route: D83). */
export function antdStyles(page) {
  return page.evaluate(() => document.querySelectorAll('style[data-css-hash], style[data-token-hash]').length);
}

/** The header tile of a module (by its menu name, e.g. 'access'). */
export function tile(page, module) {
  return page.locator(`.tw-header .tw-tiles button.tw-tile[data-module="${module}"]`);
}

/** Items of the currently open antd dropdown menu with the given text. */
export function openMenuItem(page, text) {
  return page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item').filter({ hasText: text });
}

/** Keys (paths) of the open tabs, in order. */
export async function tabKeys(page) {
  return page.locator('.tw-tabs [role="tab"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
}

/** The console's own texts (web/src/i18n/<lang>.json), so tests follow wording changes: tr('en-US', 'menu.access'). */
const bundles = {};
export function tr(lang, key) {
  bundles[lang] ??= JSON.parse(readFileSync(path.join(WEB_DIR, 'src', 'i18n', `${lang}.json`), 'utf8'));
  const v = key.split('.').reduce((o, k) => (o == null ? undefined : o[k]), bundles[lang]);
  if (typeof v !== 'string') throw new Error(`no i18n text ${lang} ${key}`);
  return v;
}

/**
 * Creates a waybill through the API with the waybill form's own choices (GET waybill/options, the
 * caller's scope): a car without an active waybill, a depot, `stops` oil stations, the first product;
 * dispatches it when asked. Returns { id, no, carId, body } of the created waybill.
 */
export async function createWaybill(base, token, { stops = 1, dispatch = false, plannedL = 8000 } = {}) {
  const call = (method, url, body) => api(base, method, url, { token, body });
  const o = (await call('GET', '/base-info-app/waybill/options')).body.data;
  if (!o) throw new Error('waybill/options answered nothing');
  const busy = new Set(((await call('POST', '/monitor-app/realTimeMoitoring/findCarsByWaybill', {})).body.data?.list ?? []).map((c) => c.carId));
  const car = o.cars.find((c) => !busy.has(c.id));
  if (!car || !o.depots.length || o.stations.length < stops || !o.products.length) {
    throw new Error(`waybill/options lacks a free car, a depot, ${stops} station(s) or a product: ${JSON.stringify({ cars: o.cars.length, depots: o.depots.length, stations: o.stations.length, products: o.products.length })}`);
  }
  const dests = o.stations.slice(0, stops);
  const compartments = dests.map((_, i) => ({ no: i + 1, productId: o.products[0].id, plannedL, destSeq: i + 1 }));
  const add = await call('POST', '/base-info-app/waybill/add', {
    carId: car.id, depotId: o.depots[0].id, stationIds: dests.map((d) => d.id), compartments,
    plannedLoadAt: Date.now() + 3_600_000, plannedArriveAt: Date.now() + 4 * 3_600_000, driverName: car.driverName || '张师傅',
  });
  if (add.body.code !== 1) throw new Error(`waybill/add: ${JSON.stringify(add.body)}`);
  const id = add.body.data?.id ?? add.body.data;
  if (dispatch) {
    const d = await call('POST', '/base-info-app/waybill/dispatch', { id });
    if (d.body.code !== 1) throw new Error(`waybill/dispatch: ${JSON.stringify(d.body)}`);
  }
  return { id, no: add.body.data?.no, carId: car.id, body: add.body };
}

/** Polls fn until it returns a truthy value (conditions, not sleeps); returns that value. */
export async function until(fn, { timeout = 30_000, every = 250, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Waits until a video wall tile's <video> decodes (videoWidth > 0) and its currentTime advances. */
export async function assertVideoDecodes(tile) {
  await assertDecodes(tile.locator('video'));
}

/** Waits until the <video> (a locator) decodes (videoWidth > 0) and its currentTime advances. */
export async function assertDecodes(video) {
  await video.evaluate(
    (v) =>
      new Promise((resolve, reject) => {
        const deadline = Date.now() + 25_000;
        let t0 = null;
        const check = () => {
          if (v.videoWidth > 0 && t0 === null) t0 = v.currentTime;
          if (t0 !== null && v.currentTime > t0 + 0.4) return resolve();
          if (Date.now() > deadline) return reject(new Error(`video: width ${v.videoWidth}, time ${v.currentTime}`));
          requestAnimationFrame(check);
        };
        check();
      }),
  );
}
