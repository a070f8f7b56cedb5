// The waybill map: a waybill created and dispatched through the API shows on monitoring_waybill with its state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, createWaybill, setup, uiLogin } from './lib.mjs';

describe('waybill map', () => {
  const env = setup();

  test('a dispatched waybill’s car is listed on monitoring_waybill with its state', async (t) => {
    const admin = (await apiLogin(env.base, 'dispatcher', 'dispatch123')).access_token;
    const call = (method, url, body) => api(env.base, method, url, { token: admin, body });
    const { id } = await createWaybill(env.base, admin, { stops: 2, dispatch: true });
    const listed = (await call('POST', '/monitor-app/realTimeMoitoring/findCarsByWaybill', {})).body.data.list.find((c) => c.waybillId === id);
    assert.ok(listed, 'the dispatched waybill is on the map');

    await env.page(t, async (page) => {
      await uiLogin(page, 'dispatcher', 'dispatch123');
      await page.goto('/#/manager/monitoring_waybill');
      const row = page.locator(`[data-testid="wbmap-row"][data-waybill="${listed.waybillNo}"]`);
      await row.waitFor();
      const text = await row.textContent();
      assert.ok(text.includes(listed.plate), 'the car’s plate');
      // the state by name, never colour alone (the demo may have moved it on since)
      assert.match(text, /已派单|装油中|已装油|已施封|运输中/);
      await row.click();
      await page.getByTestId('wbmap-card').getByText(listed.waybillNo).waitFor();
      assert.equal(await page.getByTestId('wbmap-timeline').getAttribute('href'), `#/manager/oilTransportProcess?waybillId=${id}`);
    });
  });
});
