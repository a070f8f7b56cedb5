import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tile, tr, uiLogin, waitForPage, toastDuring } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);

/** A product of admin's scope: one the demo seeded, else one made through the products registry (H1). */
async function aProduct(base, token, groupId) {
  const opts = await api(base, 'GET', '/base-info-app/waybill/options', { token });
  assert.equal(opts.body.code, 1, JSON.stringify(opts.body));
  if (opts.body.data.products.length > 0) return opts.body.data.products[0];
  const made = await api(base, 'POST', '/base-info-app/transProduct/add', {
    token,
    body: { groupId, code: 'E2E0', name: '0号柴油', grade: '0', product: 1, family: 1, density20: 835 },
  });
  if (made.status === 404) return null;
  assert.equal(made.body.code, 1, JSON.stringify(made.body));
  const again = await api(base, 'GET', '/base-info-app/waybill/options', { token });
  return again.body.data.products[0];
}

describe('waybills', () => {
  const env = setup();

  test('create a waybill in the console, see it listed, dispatch it to the online demo car, open the print view', async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const token = admin.access_token;
    // a demo car whose terminal is online (the demo fleet logs in at start-up)
    const { body: cars } = await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token, body: {} });
    assert.equal(cars.code, 1, JSON.stringify(cars));
    let car;
    for (let i = 0; i < 150 && !car; i++) {
      for (const c of (cars.data.list ?? cars.data).slice(0, 5)) {
        const { body } = await api(env.base, 'POST', '/monitor-app/parameter/values', { token, body: { carId: c.carId } });
        if (body.code === 1 && body.data.online) {
          car = body.data;
          break;
        }
      }
      if (!car) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(car, 'a demo car online');
    const opts = (await api(env.base, 'GET', '/base-info-app/waybill/options', { token })).body.data;
    const carOpt = opts.cars.find((c) => c.id === car.carId);
    assert.ok(carOpt, 'the car is a choice of the form');
    // a depot and a station of the car's company
    const depot = opts.depots[0];
    const station = opts.stations.find((s) => s.groupId === depot.groupId) ?? opts.stations[0];
    const product = await aProduct(env.base, token, depot.groupId);
    if (!product) {
      t.skip('no product registry on this build (H1 transProduct not merged)');
      return;
    }

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'basedata').click();
      await page.locator('.tw-sider-menu .ant-menu-item[data-menu-id$="/basedata/waybill"]').click();
      const pane = await waitForPage(page, '/basedata/waybill');
      await pane.getByTestId('wb-add').click();
      const form = page.getByTestId('waybill-form');
      await form.waitFor();
      const choose = async (testId, text) => {
        await form.getByTestId(testId).click();
        await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
      };
      await choose('wb-car', car.plate);
      await choose('wb-depot', depot.name);
      await choose('wb-stations', station.name);
      await page.keyboard.press('Escape');
      await form.getByTestId('wb-load').click();
      await page.keyboard.type('2026-11-27 08:00');
      await page.keyboard.press('Enter');
      await form.getByTestId('wb-arrive').click();
      await page.keyboard.type('2026-11-27 12:00');
      await page.keyboard.press('Enter');
      await choose('wb-product', product.name);
      await form.getByTestId('wb-volume').fill('8000');
      const added = page.waitForResponse((r) => r.url().endsWith('/base-info-app/waybill/add'));
      await page.locator('.ant-modal-footer .ant-btn-primary').filter({ hasText: /保\s*存/ }).click();
      const body = await (await added).json();
      assert.equal(body.code, 1, JSON.stringify(body));
      const w = body.data;
      assert.equal(w.state, 'PLANNED');

      // listed, PLANNED
      const state = pane.getByTestId(`wb-state-${w.id}`);
      await state.filter({ hasText: zh('waybillCommon.state.PLANNED') }).waitFor();
      await pane.getByText(w.no).waitFor();

      // dispatch: the text goes to the online terminal, the row shows DISPATCHED
      await pane.getByTestId(`wb-dispatch-${w.id}`).click();
      const dispatched = page.waitForResponse((r) => r.url().endsWith('/base-info-app/waybill/dispatch'));
      await toastDuring(page, zh('waybillBills.dispatched').replace('{{no}}', w.no), async () => {
        await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
        const d = await (await dispatched).json();
        assert.equal(d.code, 1, JSON.stringify(d));
      });
      await state.filter({ hasText: zh('waybillCommon.state.DISPATCHED') }).waitFor();

      // the print view: number, car, depot, product, signature boxes
      await pane.getByTestId(`wb-print-${w.id}`).click();
      const sheet = page.getByTestId('wb-print');
      await sheet.getByText(w.no).waitFor();
      await sheet.getByText(car.plate).waitFor();
      await sheet.getByText(product.name).waitFor();
      await sheet.getByText(zh('waybillBills.print.signDriver')).waitFor();
      await page.getByTestId('wb-print-go').waitFor();
    });
  });
});
