/* global window, requestAnimationFrame */
// Device-to-screen latency: a probe terminal reports over JT/T 808 while the console's monitoring page
// is open; the latency of each report is from the moment it was written to the gateway's socket to the
// moment the browser received the live update carrying it (plus the next animation frame, which is
// when the marker is drawn; both are recorded).
//
//   node scripts/perf-live.mjs --base http://127.0.0.1:18600 --gateway 127.0.0.1:18608 --probe 9997 [--reports 60] [--every 1000]
//
// The probe is demo terminal number --probe (phone 0138 + 52600100+N, JT/T 808-2013); it must not be
// driven by a simulator at the same time (run `tankwatch sim --vehicles N` with N ≤ probe). Each
// report's device time is the second it is sent, so the page can tell which report arrived.
import net from 'node:net';
import { launch, signIn, VIEWPORT } from './perf-browser.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const base = args.base ?? 'http://127.0.0.1:18600';
const [gwHost, gwPort] = (args.gateway ?? '127.0.0.1:18608').split(':');
const probe = Number(args.probe ?? 9997);
const reports = Number(args.reports ?? 60);
const every = Number(args.every ?? 1000);
const phone = `0138${String(52600100 + probe).padStart(8, '0')}`;

// --- a minimal JT/T 808-2013 terminal ---------------------------------------------------------------
function bcd(digits) {
  const out = Buffer.alloc(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = (Number(digits[2 * i]) << 4) | Number(digits[2 * i + 1]);
  return out;
}
let serial = 0;
function frame(msgId, body) {
  const head = Buffer.alloc(12);
  head.writeUInt16BE(msgId, 0);
  head.writeUInt16BE(body.length & 0x3ff, 2);
  bcd(phone).copy(head, 4);
  head.writeUInt16BE(serial++ & 0xffff, 10);
  const raw = Buffer.concat([head, body]);
  let x = 0;
  for (const b of raw) x ^= b;
  const bytes = [0x7e];
  for (const b of [...raw, x]) {
    if (b === 0x7e) bytes.push(0x7d, 0x02);
    else if (b === 0x7d) bytes.push(0x7d, 0x01);
    else bytes.push(b);
  }
  bytes.push(0x7e);
  return Buffer.from(bytes);
}
function unescape(buf) {
  const out = [];
  for (let i = 0; i < buf.length; i++) {
    if (buf[i] === 0x7d) out.push(buf[++i] === 0x01 ? 0x7d : 0x7e);
    else out.push(buf[i]);
  }
  return Buffer.from(out);
}
function connect() {
  const sock = net.connect(Number(gwPort), gwHost);
  let pending = Buffer.alloc(0);
  const waiters = [];
  sock.on('data', (d) => {
    pending = Buffer.concat([pending, d]);
    for (;;) {
      const s = pending.indexOf(0x7e);
      const e = pending.indexOf(0x7e, s + 1);
      if (s < 0 || e < 0) break;
      const f = unescape(pending.subarray(s + 1, e));
      pending = pending.subarray(e + 1);
      if (f.length >= 12) waiters.shift()?.({ msgId: f.readUInt16BE(0), body: f.subarray(12, f.length - 1) });
    }
  });
  const next = () => new Promise((resolve) => waiters.push(resolve));
  return new Promise((resolve, reject) => {
    sock.once('error', reject);
    sock.once('connect', () => resolve({ sock, next }));
  });
}
function bcdTime(ms) {
  const d = new Date(ms + 8 * 3600_000); // device clocks are GMT+8
  const p = (n) => String(n).padStart(2, '0');
  return bcd(`${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`);
}
function location(ms, i) {
  const b = Buffer.alloc(28);
  b.writeUInt32BE(0, 0); // alarm
  b.writeUInt32BE(0x3, 4); // ACC on, positioned
  b.writeUInt32BE(Math.round((31.23 + i * 0.0005) * 1e6), 8);
  b.writeUInt32BE(Math.round(121.47 * 1e6), 12);
  b.writeUInt16BE(10, 16);
  b.writeUInt16BE(600, 18); // 60 km/h
  b.writeUInt16BE(0, 20);
  bcdTime(ms).copy(b, 22);
  return b;
}

// --- the browser --------------------------------------------------------------------------------------
const browser = await launch();
const ctx = await browser.newContext({ viewport: VIEWPORT });
// Every live message is stamped on arrival; after it, the next animation frame is when markers redraw.
await ctx.addInitScript(() => {
  window.__live = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (ev) => {
        const at = Date.now();
        const rec = { at, frame: 0, data: typeof ev.data === 'string' ? ev.data : '' };
        window.__live.push(rec);
        requestAnimationFrame(() => requestAnimationFrame(() => (rec.frame = Date.now())));
      });
    }
  };
});
const page = await ctx.newPage();
await signIn(page, base);
await page.goto(`${base}/#/manager/monitoring-all`);
await page.waitForFunction(() => window.__live.some((m) => m.data.includes('"snapshot"')), null, { timeout: 120_000 });

// --- the probe reports ----------------------------------------------------------------------------------
const { sock, next } = await connect();
// The gateway registers a terminal only with the registry's terminal ID and plate (identity check):
// those of demo vehicle number probe, as internal/fleet/seed.go (DemoTerminalID, DemoFleet) makes them,
// the plate in GBK (the provinces the demo fleet uses).
const gbk = { 冀: 'bcbd', 京: 'bea9', 津: 'bdf2', 沪: 'bba6', 苏: 'cbd5', 浙: 'd5e3', 粤: 'd4c1', '·': 'a1a4' };
if (probe < 12) throw new Error('--probe must be 12 or more (a generated demo vehicle)');
const provinces = [...['冀京津', '沪苏浙', '粤'][probe % 3]];
const plate = `${provinces[Math.floor(probe / 3) % provinces.length]}${String.fromCharCode(65 + (Math.floor(probe / 7) % 8))}·${10000 + probe}`;
const plateBytes = Buffer.concat([...plate].map((c) => (gbk[c] ? Buffer.from(gbk[c], 'hex') : Buffer.from(c))));
const tid = `T${String(probe % 1000000).padStart(6, '0')}`;
const reg = Buffer.concat([Buffer.from([0, 31, 0, 1]), Buffer.from('PROBE'), Buffer.alloc(20), Buffer.from(tid), Buffer.from([2]), plateBytes]);
sock.write(frame(0x0100, reg));
const rr = await next();
if (rr.msgId !== 0x8100 || rr.body[2] !== 0) throw new Error(`registration refused: ${rr.body.toString('hex')}`);
sock.write(frame(0x0102, rr.body.subarray(3)));
const ar = await next();
if (ar.msgId !== 0x8001 || ar.body[4] !== 0) throw new Error(`authentication refused: ${ar.body.toString('hex')}`);

const sent = [];
for (let i = 0; i < reports; i++) {
  // send on a whole second, so the device time (whole seconds) is the send time
  const now = Date.now();
  const at = Math.ceil((now + 1) / 1000) * 1000 + (every > 1000 ? every - 1000 : 0);
  await new Promise((r) => setTimeout(r, at - now));
  sock.write(frame(0x0200, location(at, i)));
  sent.push(at);
}
await new Promise((r) => setTimeout(r, 5000));
sock.destroy();

// Device times as the API prints them (Asia/Shanghai).
const fmt = (ms) => new Date(ms + 8 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);
const seen = await page.evaluate(() => window.__live.map((m) => ({ at: m.at, frame: m.frame, data: m.data })));
const lat = [];
const drawn = [];
for (const t of sent) {
  const needle = `"time":"${fmt(t)}"`;
  const hit = seen.find((m) => m.data.includes(needle) && m.data.includes('"lng":121.47'));
  if (hit) {
    lat.push(hit.at - t);
    if (hit.frame) drawn.push(hit.frame - t);
  }
}
await browser.close();
const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
console.log(
  `reports=${sent.length} seen=${lat.length} ws_ms p50=${q(lat, 50)} p99=${q(lat, 99)} max=${q(lat, 100)}` +
    ` drawn_ms p50=${q(drawn, 50)} p99=${q(drawn, 99)} max=${q(drawn, 100)}`,
);
if (lat.length < sent.length) process.exitCode = 1;
