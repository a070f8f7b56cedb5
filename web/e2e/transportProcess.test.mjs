// Transport process views (D46): a dispatcher opens 运输过程看板 (transportProcess2), 油品运输过程
// (oilTransportProcess) and 运输记录 (transportRecord); a waybill made through the API shows on the board
// and its timeline lists PLANNED with the steps ahead greyed.
//
// The waybill is created through the API (lib.mjs createWaybill: waybill/options, waybill/add).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, createWaybill, setup, tr, uiLogin, waitForPage } from './lib.mjs';

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
    const made = await createWaybill(env.base, token);
    // the demo's planner makes waybills too: find ours by its number
    const list = await api(env.base, 'POST', '/monitor-app/transportProcess/page', { token, body: { pageNum: 1, pageSize: 5, no: made.no } });
    const w = list.body.data.list.find((x) => x.id === made.id) ?? list.body.data.list[0];
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
