/* global document, window, requestAnimationFrame, cancelAnimationFrame */
// Console timings in headless Chromium against a running server (sign-in admin / admin123):
//   node scripts/perf-console.mjs --base http://127.0.0.1:18600 cockpit   first render of the home cockpit
//   node scripts/perf-console.mjs --base http://127.0.0.1:18600 pan       frame rate while panning monitoring-all
// cockpit: a fresh browser context per run (cold cache) with a signed-in session; from navigation start to
// the total count showing a number. pan: the map is dragged with the mouse for 6 s while the page counts
// animation frames; the figure is frames per second, with the number of vehicles the page drew.
import { launch, signIn, VIEWPORT } from './perf-browser.mjs';

const argv = process.argv.slice(2);
const base = argv[argv.indexOf('--base') + 1] ?? 'http://127.0.0.1:18600';
const what = argv.find((a) => a === 'cockpit' || a === 'pan') ?? 'cockpit';
const runs = Number(process.env.RUNS ?? 5);

const browser = await launch();
const viewport = VIEWPORT;

async function signedInState() {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  await signIn(page, base);
  const state = await ctx.storageState();
  await ctx.close();
  return state;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const state = await signedInState();
if (what === 'cockpit') {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const ctx = await browser.newContext({ viewport, storageState: state });
    const page = await ctx.newPage();
    await page.goto(`${base}/#/home`);
    const ms = await page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid="count-8"]');
        return el && /^\d[\d,]*$/.test(el.textContent ?? '') ? performance.now() : false;
      },
      null,
      { timeout: 60_000, polling: 'raf' },
    );
    times.push(Math.round(await ms.jsonValue()));
    await ctx.close();
  }
  console.log(`cockpit first render ms: runs=${times.join(',')} median=${median(times)} max=${Math.max(...times)}`);
} else {
  const ctx = await browser.newContext({ viewport, storageState: state });
  const page = await ctx.newPage();
  await page.goto(`${base}/#/manager/monitoring-all`);
  const canvas = page.locator('[data-testid="map-vehicles"]').first();
  await canvas.waitFor({ timeout: 120_000 });
  await page.waitForTimeout(8000); // the snapshot arrives and is indexed
  const drawn = await page.evaluate(() => document.querySelector('[data-testid="map-vehicles"]')?.getAttribute('data-points') ?? '?');
  const box = await page.locator('.tw-map').first().boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.evaluate(() => {
    window.__frames = 0;
    const tick = () => {
      window.__frames++;
      window.__raf = requestAnimationFrame(tick);
    };
    window.__raf = requestAnimationFrame(tick);
  });
  const t0 = Date.now();
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  let i = 0;
  while (Date.now() - t0 < 6000) {
    const a = (i++ / 40) * Math.PI * 2;
    await page.mouse.move(cx + Math.cos(a) * 250, cy + Math.sin(a) * 150, { steps: 1 });
  }
  await page.mouse.up();
  const secs = (Date.now() - t0) / 1000;
  const frames = await page.evaluate(() => {
    cancelAnimationFrame(window.__raf);
    return window.__frames;
  });
  console.log(`pan: ${(frames / secs).toFixed(1)} fps over ${secs.toFixed(1)} s, ${i} mouse moves, vehicles drawn ${drawn}`);
  await ctx.close();
}
await browser.close();
