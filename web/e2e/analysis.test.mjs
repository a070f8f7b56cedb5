// Transport analysis and trend (dataAnalysis, D57) on the demo's past trips: a total on the page is
// the API's, its drill-down lists that many finished trips, a route row's trips likewise, the trend
// compares against the month and the year before, and both exports are real xlsx files holding the
// page's figures.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);

/** The text of one file inside a zip (an xlsx): found through the central directory, inflated. */
function unzipEntry(buf, name) {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  assert.ok(eocd >= 0, 'a zip file');
  let p = buf.readUInt32LE(eocd + 16);
  for (let i = 0; i < buf.readUInt16LE(eocd + 10); i++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extra = buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    if (buf.toString('utf8', p + 46, p + 46 + nameLen) === name) {
      const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
      const data = buf.subarray(start, start + size);
      return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    }
    p += 46 + nameLen + extra;
  }
  return '';
}

/** Last month as the page's preset gives it (Asia/Shanghai). */
function lastMonth() {
  const now = new Date(Date.now() + 8 * 3600_000);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth(); // 0-based: last month is m-1
  const first = new Date(Date.UTC(y, m - 1, 1));
  const last = new Date(Date.UTC(y, m, 0));
  const f = (d) => d.toISOString().slice(0, 10);
  return { start: f(first), end: f(last) };
}

async function download(page, button) {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  assert.match(file.suggestedFilename(), /\.xlsx$/);
  const buf = readFileSync(await file.path());
  assert.equal(buf.toString('latin1', 0, 2), 'PK', 'an xlsx (zip) file');
  return unzipEntry(buf, 'xl/worksheets/sheet1.xml');
}

describe('transport analysis pages', () => {
  const env = setup();

  test('a total equals its drill-down, a route row too; the trend compares; both export real xlsx', { timeout: 90_000 }, async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const range = lastMonth();
    const call = async (url, body) => (await api(env.base, 'POST', url, { token: admin.access_token, body })).body;
    const routes = await call('/monitor-app/outToArrival/selectTransportProcessStatistics', { ...range, dim: 'route' });
    assert.equal(routes.code, 1, JSON.stringify(routes));
    const total = routes.data.totals.trips;
    assert.ok(total > 0, `the demo's past trips (the overview part's seed) give last month finished trips: ${total}`);
    const route = routes.data.rows[0];
    const fmt = (n) => n.toLocaleString('en-US');

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/dataAnalysis/transportation');
      let pane = await waitForPage(page, '/dataAnalysis/transportation');
      await pane.locator('.ant-select').first().click();
      await page.locator(`.ant-select-item-option[title="${zh('preset.last_month')}"]`).click();
      await pane.getByTestId('tile-trips').filter({ hasText: fmt(total) }).waitFor();
      // the total opens its trips: the drawer counts the same number
      await pane.getByTestId('tile-trips').click();
      const drawer = page.locator('.ant-drawer-content').last();
      await drawer.getByTestId('drill-count').filter({ hasText: String(total) }).waitFor();
      await drawer.locator('.ant-table-row').first().waitFor();
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
      // by route: the first row's trips open that many trips of that route
      await pane.getByTestId('dim-switch').getByText(zh('analysis.dim.route')).click();
      const row = pane.getByTestId('breakdown-table').locator('.ant-table-row').filter({ hasText: route.name }).first();
      await row.getByTestId('cell-trips').filter({ hasText: fmt(route.trips) }).click();
      await page.locator('.ant-drawer-content').last().getByTestId('drill-count').filter({ hasText: String(route.trips) }).waitFor();
      const api2 = await call('/monitor-app/outToArrival/trips', { ...range, depotId: route.depotId, stationId: route.stationId ?? 0, pageSize: 1 });
      assert.equal(api2.data.total, route.trips, 'the route drill-down counts the route figure');
      await page.keyboard.press('Escape');
      await pane.getByTestId('top5').locator('.ant-list-item').first().waitFor();
      const sheet = await download(page, pane.getByTestId('analysis-export'));
      assert.ok(sheet.includes(`<v>${total}</v>`), 'the export holds the total trips');
      assert.ok(sheet.includes(`<v>${route.trips}</v>`), 'and the route rows');

      // trend: last month against the month before and the year before
      await page.goto('/#/dataAnalysis/trend');
      pane = await waitForPage(page, '/dataAnalysis/trend');
      await pane.locator('.ant-select').first().click();
      await page.locator(`.ant-select-item-option[title="${zh('preset.last_month')}"]`).click();
      await pane.getByTestId('tile-trips').filter({ hasText: fmt(total) }).waitFor();
      const table = pane.getByTestId('compare-table');
      await table.locator('.ant-table-row').first().filter({ hasText: fmt(total) }).waitFor();
      await pane.getByTestId('trend-chart').waitFor();
      const cmp = await call('/monitor-app/outToArrival/selectTonKilometers', { ...range, grain: 'day' });
      assert.equal(cmp.data.current.totals.trips, total);
      assert.equal(cmp.data.current.points.length, Number(range.end.slice(8)), 'a point per day of the month');
      const trend = await download(page, pane.getByTestId('trend-export'));
      assert.ok(trend.includes(`<v>${total}</v>`), 'the trend export holds the period total');
    });
  });
});
