// The period overview (统计, D56) and the operations report (报表) on the demo's past trips: the tiles
// are not zero, a tile's drill-down lists exactly as many trips as the tile says, the overview exports
// a real xlsx; the report of a demo company for this month renders its sections and exports too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);

/** The Asia/Shanghai day (YYYY-MM-DD) n days from today. */
const shanghaiDay = (n) => new Date(Date.now() + 8 * 3600_000 + n * 86400_000).toISOString().slice(0, 10);

/** The saved file of a download: an xlsx is a zip (PK). */
async function xlsxOf(download) {
  assert.match(download.suggestedFilename(), /\.xlsx$/);
  const file = await download.path();
  const head = readFileSync(file).subarray(0, 2).toString('latin1');
  assert.equal(head, 'PK', 'the export is an xlsx (zip) file');
}

describe('statistic and report', () => {
  const env = setup({ args: ['--demo-vehicles', '12'] });

  test('the overview shows the past month, a tile drills down to as many trips, and exports', { timeout: 60_000 }, async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/statistic');
      const pane = await waitForPage(page, '/manager/statistic');
      // the last 20 days always hold past trips (the seed covers the 60 days before today)
      const start = pane.getByPlaceholder(zh('time.start'));
      await start.click();
      await start.fill(shanghaiDay(-20));
      // Enter takes the date and submits the form (the query button would do the same)
      const answered = page.waitForResponse((r) => r.url().endsWith('/transportProcessItem/selectTrafficStatistics') && r.request().postData()?.includes(shanghaiDay(-20)));
      await start.press('Enter');
      await pane.getByTestId('ov-query').click();
      const body = await (await answered).json();
      assert.equal(body.code, 1, JSON.stringify(body));
      const trips = body.data.current.trips;
      assert.ok(trips > 0 && body.data.current.shippedV20 > 0 && body.data.current.tonKm > 0, `tiles: ${JSON.stringify(body.data.current)}`);
      const tile = pane.getByTestId('tile-trips-value');
      await pane.locator(`[data-testid="tile-trips-value"][data-value="${trips}"]`).waitFor();
      assert.ok(Number(await tile.getAttribute('data-value')) > 0);
      // the trips tile → the drawer lists the same number of trips
      await pane.getByTestId('tile-trips').click();
      await page.getByTestId('drill-count').filter({ hasText: tr('zh-CN', 'overview.drillCount').replace('{{n}}', String(trips)) }).waitFor();
      await page.locator('.ant-drawer .ant-table-row').first().waitFor();
      await page.locator('.ant-drawer-close').click();
      // the over-allowance tile too
      const over = body.data.current.overAllowance;
      await pane.getByTestId('tile-overAllowance').click();
      await page.getByTestId('drill-count').filter({ hasText: tr('zh-CN', 'overview.drillCount').replace('{{n}}', String(over)) }).waitFor();
      await page.locator('.ant-drawer-close').click();
      // the export
      const [download] = await Promise.all([page.waitForEvent('download'), pane.getByTestId('ov-export').click()]);
      await xlsxOf(download);
    });
    // the same figure from the API: the drill-down's count is the tile's
    const s = await apiLogin(env.base, 'admin', 'admin123');
    const q = { start: shanghaiDay(-20), end: shanghaiDay(0) };
    const o = (await api(env.base, 'POST', '/monitor-app/transportProcessItem/selectTrafficStatistics', { token: s.access_token, body: q })).body.data;
    const d = (await api(env.base, 'POST', '/monitor-app/transportProcessItem/trips', { token: s.access_token, body: { ...q, pageNum: 1, pageSize: 1 } })).body.data;
    assert.equal(d.total, o.current.trips);
  });

  test('the operations report of a demo company for this month renders its sections and exports', { timeout: 60_000 }, async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/report');
      const pane = await waitForPage(page, '/manager/report');
      await pane.locator('.rp-filters .ant-select-selector').first().click();
      await page.locator('.ant-select-tree-node-content-wrapper').filter({ hasText: '华东分公司' }).first().click();
      await pane.getByTestId('rp-generate').click();
      const paper = pane.getByTestId('report-paper');
      await paper.getByTestId('report-company').filter({ hasText: '华东分公司' }).waitFor();
      for (const k of ['summary', 'cars', 'products', 'stations', 'diffs', 'sign']) {
        await paper.locator('h2', { hasText: zh(`overview.report.${k}`) }).waitFor();
      }
      await paper.getByTestId('report-summary').waitFor();
      // on the first of a month nothing has finished yet this month; any other day the sections have rows
      if (shanghaiDay(0).slice(8) !== '01') {
        await paper.getByTestId('report-cars').locator('tbody tr').first().waitFor();
        await paper.getByTestId('report-stations').locator('tbody tr').first().waitFor();
      }
      const [download] = await Promise.all([page.waitForEvent('download'), pane.getByTestId('rp-export').click()]);
      await xlsxOf(download);
    });
  });
});
