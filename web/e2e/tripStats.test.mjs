// Car, company and product statistics (D50, D55): a trip is loaded and finished through the API (load
// record, then an operator's correction to CLOSED — the writers mark the rollup and the worker adds it
// up); every statistics page opens with the demo and shows its totals; on carStat the totals row's trip
// count and V20 equal the drill-down's rows, with and without the product filter, and the export is a
// real xlsx.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { api, apiLogin, createWaybill, setup, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (k) => tr('zh-CN', k);
const PAGES = ['carStat', 'compStat', 'transportProductStat', 'carStat2', 'compStat2', 'transportProductStat2'];

/** Polls cond (an async check of the server's answer) until it holds: the rollup worker runs every few seconds. */
async function until(what, cond, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('trip statistics', () => {
  const env = setup({ args: ['--demo-vehicles', '5'] });

  test('a finished trip reaches every statistics page; totals equal the trips behind them; the export is an xlsx', { timeout: 60_000 }, async (t) => {
    const token = (await apiLogin(env.base, 'admin', 'admin123')).access_token;
    const call = async (url, body) => (await api(env.base, 'POST', url, { token, body })).body;
    const made = await createWaybill(env.base, token, { dispatch: true, plannedL: 8000 });
    const rec = await call('/monitor-app/loadRecord/save', { waybillId: made.id, items: [{ compartment: 1, vtL: 8000, tempC: 20, sealNo: 'E2E-TS1' }] });
    assert.equal(rec.code, 1, JSON.stringify(rec));
    const closed = await call('/monitor-app/transportProcess/correct', { waybillId: made.id, state: 'CLOSED', reason: 'e2e: finished by hand' });
    assert.equal(closed.code, 1, JSON.stringify(closed));
    const now = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10); // today in Asia/Shanghai
    const period = { start: `${now} 00:00:00`, end: `${now} 23:59:59` };
    // the worker adds the trip up within a few seconds
    const car = await until('the trip in the car statistics', async () => {
      const p = await call('/monitor-app/realTimeMoitoring/getVehicleTransportationStatisticsPage1', { ...period, carId: made.carId, pageNum: 1, pageSize: 10 });
      return p.data?.list?.[0]?.trips >= 1 ? p.data.list[0] : null;
    });
    assert.ok(car.shippedV20 > 7000, JSON.stringify(car));

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      for (const name of PAGES) {
        await page.goto(`/#/manager/${name}`);
        const pane = await waitForPage(page, `/manager/${name}`);
        await pane.locator('[data-testid="totals-row"]').waitFor();
        await pane.getByRole('columnheader', { name: zh('tripStats.lossRatePct') }).waitFor();
      }
      // carStat this month: the totals row against its drill-down
      await page.goto('/#/manager/carStat');
      const pane = await waitForPage(page, '/manager/carStat');
      const total = pane.locator('[data-testid="total-trips"]');
      await total.waitFor();
      const trips = Number((await total.textContent()).replace(/,/g, ''));
      assert.ok(trips >= 1, `totals row trips ${trips}`);
      const v20 = (await pane.locator('[data-testid="total-shippedV20"]').textContent()).trim();
      await total.click();
      const drawer = page.locator('.ant-drawer-content');
      await drawer.locator('[data-testid="drill-count"]').filter({ hasText: new RegExp(`^${trips}$`) }).waitFor();
      assert.equal((await drawer.locator('[data-testid="drill-sum-shippedV20"]').textContent()).trim(), v20);
      const rows = drawer.locator('.ant-table-tbody tr.ant-table-row');
      await rows.first().waitFor();
      assert.equal(await rows.count(), Math.min(trips, 20));
      await drawer.getByText(made.no ?? '').first().waitFor();
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
      // the product filter: one product's figures, and the drill-down behind them the same trips
      await pane.getByTestId('product-filter').locator('.ant-select-selector').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('getVehicleTransportationStatisticsPage1') && (r.request().postData() ?? '').includes('"productId"')),
        pane.locator('button').filter({ hasText: /查\s*询/ }).click(),
      ]);
      const oneTrips = (await answer.json()).data.sum.trips;
      assert.ok(oneTrips >= 1 && oneTrips <= trips, `one product's trips ${oneTrips} of ${trips}`);
      await total.filter({ hasText: new RegExp(`^${oneTrips.toLocaleString('en-US')}$`) }).waitFor();
      const oneV20 = (await pane.locator('[data-testid="total-shippedV20"]').textContent()).trim();
      await total.click();
      await drawer.locator('[data-testid="drill-count"]').filter({ hasText: new RegExp(`^${oneTrips}$`) }).waitFor();
      assert.equal((await drawer.locator('[data-testid="drill-sum-shippedV20"]').textContent()).trim(), oneV20);
      await page.keyboard.press('Escape');
      // the export: a real xlsx (a zip holding the sheet)
      const [download] = await Promise.all([page.waitForEvent('download'), pane.locator('button').filter({ hasText: /导\s*出/ }).click()]);
      assert.match(download.suggestedFilename(), /\.xlsx$/);
      const bytes = readFileSync(await download.path());
      assert.equal(bytes.subarray(0, 2).toString(), 'PK');
      assert.ok(bytes.includes(Buffer.from('xl/worksheets/sheet1.xml')), 'the workbook holds a sheet');
    });
  });
});
