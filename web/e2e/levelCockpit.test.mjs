// The liquid-level cockpit (manager/cockpit) against the running demo fleet: its truck tiles are the
// summary call's numbers, the compartments chart is drawn, a number changes live as the demo trucks
// load and unload, a tile opens monitoring2 with its trucks, and the page is a full screen without the
// console's shell.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tr, uiLogin } from './lib.mjs';

const SUMMARY = '/monitor-app/cockpit/summary';
const TILES = ['loaded', 'empty', 'loading', 'unloading'];

/** Keeps the newest summary the page received. */
function watchSummaries(page) {
  const seen = { last: null, n: 0 };
  page.on('response', async (r) => {
    if (!r.url().includes(SUMMARY) || r.status() !== 200) return;
    try {
      const body = await r.json();
      if (body.success === 1 || body.code === 1) {
        seen.last = body.data;
        seen.n++;
      }
    } catch { /* navigated away */ }
  });
  return seen;
}

async function tileCounts(page) {
  const out = {};
  for (const s of TILES) out[s] = await page.getByTestId(`lc-tile-${s}`).getAttribute('data-count');
  return out;
}

/** Waits until cond() is true (polling), failing with what() after ms. */
async function until(cond, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) throw new Error(`timed out: ${what()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('liquid-level cockpit', () => {
  // the demo trucks report every 2 s: the loading ones change the total volume within seconds
  const env = setup({ args: ['--demo-interval', '2s'] });

  test('shows the summary’s truck counts, the compartments chart, and changes live', async (t) => {
    await env.page(t, async (page) => {
      const seen = watchSummaries(page);
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/cockpit');
      await page.getByTestId('level-cockpit').waitFor();
      // full screen: no shell around it
      assert.equal(await page.locator('.tw-header .tw-tiles').count(), 0, 'the shell is not drawn');
      assert.equal(await page.getByTestId('lc-title').textContent(), tr('zh-CN', 'menu.cockpit'));

      // the tiles show the newest summary's counts (a live refresh may replace it meanwhile)
      await until(async () => {
        if (!seen.last) return false;
        const shown = await tileCounts(page);
        return TILES.every((s) => shown[s] === String(seen.last.trucks.counts[s]));
      }, 20_000, () => `tiles ${JSON.stringify(seen.last?.trucks.counts)}`);
      const s = seen.last;
      assert.equal(s.trucks.total, 40, 'the demo fleet');
      const sum = Object.values(s.trucks.counts).reduce((a, b) => a + b, 0);
      assert.equal(sum, s.trucks.total, 'each truck in exactly one state');
      assert.ok(s.compartments.total > 0, 'the demo trucks report levels');

      // the compartments chart is drawn (a canvas with a size), the demo stations' tanks are listed
      const chart = page.getByTestId('lc-band-chart');
      await chart.locator('canvas').waitFor();
      const box = await chart.boundingBox();
      assert.ok(box && box.width > 100 && box.height > 80, `chart size ${JSON.stringify(box)}`);
      await page.getByTestId('lc-tank').first().waitFor();

      // the server's own answer agrees with the page's data source
      const admin = await apiLogin(env.base, 'admin', 'admin123');
      const direct = (await api(env.base, 'POST', SUMMARY, { token: admin.access_token, body: {} })).body.data;
      assert.equal(direct.trucks.total, s.trucks.total);

      // live: the demo trucks load and unload, so the total volume changes without a reload
      const before = await page.getByTestId('lc-volume').getAttribute('data-volume');
      await until(async () => (await page.getByTestId('lc-volume').getAttribute('data-volume')) !== before, 120_000,
        () => `total volume stayed ${before} over ${seen.n} summaries`);
      await page.getByTestId('lc-live').waitFor();
      assert.equal(await page.getByTestId('lc-live').getAttribute('data-state'), 'open', 'live stream connected');
      assert.equal(await page.getByTestId('lc-stale').count(), 0, 'not stale');
    });
  });

  test('a truck tile opens monitoring2 with its trucks; the back button returns to the console', async (t) => {
    await env.page(t, async (page) => {
      const seen = watchSummaries(page);
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/cockpit');
      await until(async () => !!seen.last, 20_000, () => 'no summary');
      const state = TILES.find((x) => seen.last.trucks.counts[x] > 0);
      assert.ok(state, 'some tile has trucks');
      const tileEl = page.getByTestId(`lc-tile-${state}`);
      await until(async () => !(await tileEl.isDisabled()), 10_000, () => `tile ${state} not clickable`);
      await tileEl.click();
      await page.waitForURL(/#\/manager\/monitoring2\?/);
      const q = new URLSearchParams(page.url().split('?')[1]);
      assert.equal(q.get('title'), tr('zh-CN', `levelCockpit.monitorTitle.${state}`));
      const ids = q.get('cars').split(',').map(Number);
      assert.ok(ids.length > 0 && ids.every((n) => n > 0), `cars ${q.get('cars')}`);
      // monitoring2 checks exactly those trucks: the map counts them as its total
      const onMap = tr('zh-CN', 'monitor.onMap').replace('{{n}}', '\\d+').replace('{{total}}', String(ids.length));
      const count = page.getByTestId('map-count');
      await until(async () => new RegExp(`^${onMap}$`).test((await count.textContent().catch(() => '')) ?? ''), 20_000,
        () => `map count for ${ids.length} trucks`);

      await page.goto('/#/manager/cockpit');
      await page.getByTestId('lc-back').click();
      await page.waitForURL(/#\/home$/);
    });
  });

  test('in English, with the clock and scope in the header', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/cockpit');
      await page.getByTestId('lc-tile-loaded').waitFor();
      assert.equal(await page.getByTestId('lc-title').textContent(), tr('en-US', 'menu.cockpit'));
      assert.match(await page.getByTestId('lc-clock').textContent(), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const label = await page.getByTestId('lc-tile-unloading').locator('.lc-tile-label').textContent();
      assert.equal(label, tr('en-US', 'levelCockpit.truck.unloading'));
      await page.getByTestId('lc-alarms').waitFor();
      await page.getByTestId('lc-active-panel').waitFor();
      // nothing scrolls on a 1440×900 laptop
      const size = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]);
      assert.deepEqual(size, [1440, 900]);
    }, { locale: 'en-US' });
  });
});
