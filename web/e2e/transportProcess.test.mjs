// Transport process views (D46): a dispatcher opens 运输过程看板 (transportProcess2), 油品运输过程
// (oilTransportProcess) and 运输记录 (transportRecord); a waybill made through the API shows on the board
// and its timeline lists PLANNED with the steps ahead greyed.
//
// Waybills are created with POST /base-info-app/waybill/add (wb-bills). On a branch without it (404) the
// waybill test is skipped with that reason; the pages are still checked with what the demo has.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tr, uiLogin, waitForPage } from './lib.mjs';

describe('transport process views', () => {
  const env = setup({ args: ['--demo-vehicles', '5'] });

  test('the board, the timeline page and the record render for a dispatcher', { timeout: 90_000 }, async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'dispatcher', 'dispatch123');
      await page.goto('/#/manager/transportProcess2');
      const board = await waitForPage(page, '/manager/transportProcess2');
      for (const p of ['waiting', 'loading', 'transit', 'unloading', 'review', 'closed']) {
        await board.locator(`[data-testid="phase-${p}"]`, { hasText: tr('zh-CN', `transportProcess2.phase.${p}`) }).waitFor();
      }
      await page.goto('/#/manager/transportRecord');
      const rec = await waitForPage(page, '/manager/transportRecord');
      await rec.locator('[data-testid="totals-row"]').waitFor();
      await rec.getByRole('columnheader', { name: tr('zh-CN', 'transportProcess.lossRate') }).waitFor();
      await page.goto('/#/manager/oilTransportProcess');
      const otp = await waitForPage(page, '/manager/oilTransportProcess');
      await otp.getByText(tr('zh-CN', 'transportProcess.pick')).waitFor();
    });
  });

  test('a new waybill is on the board and its timeline shows the steps ahead', { timeout: 90_000 }, async (t) => {
    const s = await apiLogin(env.base, 'admin', 'admin123');
    const token = s.access_token;
    const probe = await api(env.base, 'POST', '/base-info-app/waybill/add', { token, body: {} });
    if (probe.status === 404) {
      t.skip('POST /base-info-app/waybill/add is not on this branch (wb-bills): no waybill to show');
      return;
    }
    const cars = await api(env.base, 'POST', '/base-info-app/carInfo/page', { token, body: { pageNum: 1, pageSize: 1 } });
    const stations = await api(env.base, 'GET', '/base-info-app/station/viewStation', { token });
    const depot = stations.body.data.find((x) => x.stationType === 'yk');
    const station = stations.body.data.find((x) => x.stationType === 'jyz');
    const products = await api(env.base, 'GET', '/base-info-app/transProduct/list', { token });
    const add = await api(env.base, 'POST', '/base-info-app/waybill/add', {
      token,
      body: {
        carId: cars.body.data.list[0].id, depotId: depot.id, destinations: [{ seq: 1, stationId: station.id }],
        compartments: [{ no: 1, productId: products.body.data?.[0]?.id, plannedL: 8000, destSeq: 1 }],
        plannedLoadAt: Date.now() + 3_600_000, plannedArriveAt: Date.now() + 4 * 3_600_000, driverName: '张师傅',
      },
    });
    assert.equal(add.body.code, 1, `waybill/add: ${JSON.stringify(add.body)}`);
    const list = await api(env.base, 'POST', '/monitor-app/transportProcess/page', { token, body: { pageNum: 1, pageSize: 5 } });
    const w = list.body.data.list[0];
    assert.equal(w.state, 'PLANNED');
    await env.page(t, async (page) => {
      await uiLogin(page, 'dispatcher', 'dispatch123');
      await page.goto('/#/manager/transportProcess2');
      const board = await waitForPage(page, '/manager/transportProcess2');
      await board.locator('[data-testid="phase-waiting"] [data-testid="board-card"]', { hasText: w.no }).click();
      const otp = await waitForPage(page, '/manager/oilTransportProcess');
      const view = otp.locator('[data-testid="trip-view"]');
      await view.getByText(w.no).first().waitFor();
      assert.equal(await view.locator('[data-testid="planned-step"]').count(), 10);
    });
  });
});
