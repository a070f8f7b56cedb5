/* global window, document, requestAnimationFrame, Element */
// Live video measurements (issue 17, docs/PERFORMANCE.md "Live video in the browser"):
//
//  1. click to first frame on videoLive in headless Chromium: the page is open in the 1-tile layout, a
//     channel is clicked in the tree, and the time runs until the tile's <video> has videoWidth > 0 and
//     its first frame was presented (requestVideoFrameCallback). Cold: a channel nobody watches (0x9101
//     to the simulated terminal, its media connection, the relay's first GOP); warm: a channel another
//     viewer already watches (the relay's cached GOP only).
//  2. relay CPU and memory per stream and per viewer: the server's /proc/<pid>/stat CPU time and VmRSS
//     over a window with no streams, with S streams × 1 viewer and with S streams × V viewers. The
//     simulated terminals run in a separate `tankwatch sim` process (--demo-sim=false), so the server's
//     figures are the 808 gateway + 1078 ingest + relay + WebSockets, not the simulator's packetising.
//
//   cd web && node --experimental-websocket scripts/perf-video.mjs [--runs 20] [--streams 8] [--viewers 4] [--window 20]
//
// Needs bin/tankwatch (make build). Prints a JSON summary at the end.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, apiLogin, BINARY, freePort } from '../e2e/lib.mjs';
import { launch, signIn } from './perf-browser.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const RUNS = Number(args.runs ?? 20);
const STREAMS = Number(args.streams ?? 8);
const VIEWERS = Number(args.viewers ?? 4);
const WINDOW_S = Number(args.window ?? 20);
const FLEET = Math.max(40, RUNS + STREAMS + 2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(fn, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(250);
  }
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const summary = (xs) => ({ n: xs.length, median: Math.round(pct(xs, 50)), p90: Math.round(pct(xs, 90)), min: Math.round(Math.min(...xs)), max: Math.round(Math.max(...xs)) });

// ---- server and simulator ----
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tankwatch-perfvideo-'));
const httpAddr = `127.0.0.1:${await freePort()}`;
const gw = `127.0.0.1:${await freePort()}`;
const base = `http://${httpAddr}`;
const children = [];
function run(cmd, argv) {
  const c = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TANKWATCH_DB: '' } });
  let err = '';
  c.stderr.on('data', (d) => {
    err = (err + d).slice(-4000);
  });
  c.tail = () => err;
  children.push(c);
  return c;
}
function cleanup() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

const server = run(BINARY, ['serve', '--demo', '--demo-sim=false', '--demo-vehicles', String(FLEET), '--demo-history-cars', '0', '--data', dataDir, '--http', httpAddr, '--jt808', gw, '--jt1078', '127.0.0.1:0', '--map-tiles', 'none']);
await until(async () => (await fetch(`${base}/readyz`).catch(() => null))?.status === 200, 90_000, `server ready (${server.tail()})`);
run(BINARY, ['sim', '--gateway', gw, '--vehicles', String(FLEET), '--misbehave', '0', '--day-at-start']);
const admin = await apiLogin(base, 'admin', 'admin123');
const token = admin.access_token;
const call = async (method, url, body) => {
  const r = await api(base, method, url, { token, body });
  if (r.body.code !== 1) throw new Error(`${url}: ${JSON.stringify(r.body)}`);
  return r.body.data;
};
const online = await until(
  async () => {
    const cars = (await call('POST', '/monitor-app/realTimeMoitoring/findCars', { pageNum: 1, pageSize: 500 })).list.filter((c) => c.code !== 7);
    return cars.length >= RUNS + STREAMS ? cars.sort((a, b) => a.carId - b.carId) : null;
  },
  240_000,
  `${RUNS + STREAMS} simulated terminals online`,
);
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
console.error(`server ${base}, ${online.length} cars online, load ${load()}`);

// ---- 1. click to first frame ----
const browser = await launch();
/** A signed-in page on videoLive in the 1-tile layout (its own browser context). */
async function videoLivePage() {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', baseURL: base });
  const p = await ctx.newPage();
  await signIn(p, base);
  await p.goto('/#/manager/videoLive');
  await p.getByTestId('video-live-page').waitFor();
  await p.getByTestId('vl-layout-1').click();
  return p;
}
const page = await videoLivePage();

/** Clicks car's channel in the tree; returns ms from the click event to the first presented frame. */
async function firstFrame(car, channelNo) {
  await page.getByTestId('vl-search').fill(car.plate);
  const chan = page.getByTestId(`vl-channel-${car.carId}-${channelNo}`);
  if (!(await chan.isVisible())) await page.getByTestId(`vl-car-${car.carId}`).click();
  await chan.waitFor();
  const sel = `[data-testid="vl-channel-${car.carId}-${channelNo}"]`;
  await page.evaluate(
    ({ sel, carId, channelNo }) => {
      window.__firstFrame = new Promise((resolve, reject) => {
        let t0 = null;
        document.addEventListener('click', (e) => { if (e.target instanceof Element && e.target.closest(sel)) t0 = performance.now(); }, { capture: true, once: true });
        const deadline = performance.now() + 30_000;
        let watching = null;
        const poll = () => {
          const tile = document.querySelector(`[data-testid="vl-tile-0"][data-car="${carId}"][data-channel="${channelNo}"]`);
          const v = tile?.querySelector('video');
          if (v && v !== watching) {
            watching = v;
            // the first frame the compositor presents (its presentation time is when it was shown)
            v.requestVideoFrameCallback((now, meta) => {
              const check = () => (v.videoWidth > 0 ? resolve({ ms: Math.min(now, meta.presentationTime) - t0, width: v.videoWidth }) : requestAnimationFrame(check));
              check();
            });
          }
          if (performance.now() > deadline) return reject(new Error(`no frame: ${tile?.dataset.status} ${tile?.dataset.reason ?? ''}`));
          requestAnimationFrame(poll);
        };
        poll();
      });
    },
    { sel, carId: car.carId, channelNo },
  );
  await chan.click();
  return page.evaluate(() => window.__firstFrame);
}

const cold = [];
const warm = [];
// a second viewer (its own browser context) keeps a channel live for the warm runs
const helper = await videoLivePage();

for (let i = 0; i < RUNS; i++) {
  const car = online[i];
  // cold: nobody watches channel 1 of this car
  const c = await firstFrame(car, 1);
  cold.push(c.ms);
  // warm: the helper plays channel 2 first, then the measured page joins it
  await helper.getByTestId('vl-search').fill(car.plate);
  await helper.getByTestId(`vl-car-${car.carId}`).click();
  await helper.getByTestId(`vl-channel-${car.carId}-2`).click();
  await helper.locator(`[data-testid="vl-tile-0"][data-car="${car.carId}"][data-channel="2"][data-status="playing"]`).waitFor({ timeout: 30_000 });
  const w = await firstFrame(car, 2);
  warm.push(w.ms);
  console.error(`run ${i + 1}: cold ${Math.round(c.ms)} ms, warm ${Math.round(w.ms)} ms (${c.width} px), load ${load()}`);
}
await page.getByTestId('vl-close-all').click();
await helper.getByTestId('vl-close-all').click();
await browser.close();
await until(async () => (await call('POST', '/base-info-app/carInfo/reportLiveVideos', {})).length === 0, 60_000, 'streams released');

// ---- 2. relay CPU and memory ----
const CLK = 100; // USER_HZ on Linux
const cpuOf = () => {
  const f = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / CLK; // utime + stime, seconds
};
const rssOf = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024; // MiB
async function window_(label) {
  const c0 = cpuOf();
  const t0 = performance.now();
  const rss = [];
  while (performance.now() - t0 < WINDOW_S * 1000) {
    rss.push(rssOf());
    await sleep(1000);
  }
  const cpu = (cpuOf() - c0) / ((performance.now() - t0) / 1000);
  const r = { label, cpuPercent: +(cpu * 100).toFixed(1), rssMiB: +Math.max(...rss).toFixed(1), load: load() };
  console.error(JSON.stringify(r));
  return r;
}
const sockets = [];
function view(stream) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}${stream.flvUrl}?token=${encodeURIComponent(token)}`);
    ws.binaryType = 'arraybuffer';
    ws.bytes = 0;
    ws.onmessage = (e) => {
      ws.bytes += e.data.byteLength;
      if (ws.bytes > 0) resolve(ws);
    };
    ws.onerror = () => reject(new Error('viewer socket failed'));
    sockets.push(ws);
  });
}
const idle = await window_('no streams');
const streams = [];
for (let i = 0; i < STREAMS; i++) streams.push(await call('GET', `/base-info-app/carInfo/doVisual?carId=${online[RUNS + i].carId}&channelNo=1`));
for (const s of streams) await view(s);
await sleep(3000);
const one = await window_(`${STREAMS} streams × 1 viewer`);
for (const s of streams) for (let v = 1; v < VIEWERS; v++) await view(s);
await sleep(3000);
const many = await window_(`${STREAMS} streams × ${VIEWERS} viewers`);
const received = sockets.reduce((a, w) => a + w.bytes, 0);
for (const w of sockets) w.close();

const perStreamCpu = (one.cpuPercent - idle.cpuPercent) / STREAMS;
const perViewerCpu = (many.cpuPercent - one.cpuPercent) / (STREAMS * (VIEWERS - 1));
const out = {
  when: new Date().toISOString(),
  machine: `${os.cpus().length} cores, load ${load()} at the end (shared with other builds)`,
  clickToFirstFrameMs: { cold: summary(cold), warm: summary(warm) },
  relay: { idle, one, many, perStreamCpuPercent: +perStreamCpu.toFixed(2), perViewerCpuPercent: +perViewerCpu.toFixed(2), perStreamMiB: +((one.rssMiB - idle.rssMiB) / STREAMS).toFixed(2), perViewerMiB: +((many.rssMiB - one.rssMiB) / (STREAMS * (VIEWERS - 1))).toFixed(2), viewerBytes: received },
};
console.log(JSON.stringify(out, null, 2));
process.exit(0);
