// Level trends (hydtrend, hydtrend2) on the demo fleet: a car's compartments drawn with speed and
// events, zoomed (a finer re-query), a clicked moment's position on the map; a station tank's page.
// Needs the demo's level readings (the history writer fills level_readings, issue 14 ingest).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tr, uiLogin, waitForPage } from './lib.mjs';

const M = '/monitor-app/realTimeMoitoring';

describe('level trends', () => {
  // the demo trucks report every 2 s: a car has its three readings within seconds
  const env = setup({ args: ['--demo-interval', '2s'] });

  test('液位趋势: a demo car’s compartments, zoom, a clicked point on the map', async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const token = admin.access_token;
    // a demo car with level readings in the last half hour (the writer stores them with its positions)
    const deadline = Date.now() + 90_000;
    let car;
    for (;;) {
      const cars = (await api(env.base, 'POST', `${M}/findCars`, { token, body: { pageNum: 1, pageSize: 10 } })).body.data?.list ?? [];
      for (const c of cars) {
        const now = Date.now();
        const r = await api(env.base, 'POST', `${M}/levelChart`, { token, body: { carId: c.carId, start: now - 1800_000, end: now + 60_000 } });
        assert.equal(r.body.code, 1, JSON.stringify(r.body));
        if (r.body.data.compartments.some((k) => k.series.t.length >= 3)) {
          car = c;
          break;
        }
      }
      if (car) break;
      assert.ok(Date.now() < deadline, 'a demo car with level readings within 90 s');
      await new Promise((r) => setTimeout(r, 1000));
    }
    // refusals: a bad period in the caller's language, another page's token cannot read
    const bad = await api(env.base, 'POST', `${M}/levelChart`, { token, lang: 'en-US', body: { carId: car.carId, start: 2000, end: 1000 } });
    assert.notEqual(bad.body.code, 1);
    assert.match(bad.body.message, /later than the start/);

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      const at = Date.now() - 60_000;
      await page.goto(`/#/manager/hydtrend?carId=${car.carId}&at=${at}`);
      const pane = await waitForPage(page, '/manager/hydtrend');
      await page.locator('.tw-tabs [role=tab]', { hasText: tr('zh-CN', 'menu.hydtrend') }).first().waitFor();
      const chart = pane.getByTestId('trend-chart');
      await chart.waitFor();
      await page.waitForFunction(() => document.querySelector('[data-testid="trend-chart"]')?.getAttribute('data-draw-ms'));
      t.diagnostic(`drawn in ${await chart.getAttribute('data-draw-ms')} ms`);
      // the linked car's plate shows in the picker; compartments can be toggled
      await pane.getByTestId('vehicle-picker').filter({ hasText: car.plate }).waitFor();
      assert.ok(await pane.getByTestId('trend-comps').locator('input[type=checkbox]').count() >= 1);

      // zoom in with the wheel over the chart: the view narrows ("reset zoom" appears)
      const box = await chart.boundingBox();
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.3);
      for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -300);
      await pane.getByRole('button', { name: tr('zh-CN', 'trend.resetZoom') }).waitFor();

      // a click at a moment: the position card shows the marker on the map
      const asked = page.waitForResponse((r) => r.url().includes('/positionAt?'));
      await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.3);
      const pos = await (await asked).json();
      assert.equal(pos.code, 1);
      if (pos.data) await pane.locator('.tw-trend-here').waitFor();
      else await pane.getByText(tr('zh-CN', 'trend.noPosition')).waitFor();
    });
  });

  test('液位趋势2: a station tank’s trend or its empty state', async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const tanks = (await api(env.base, 'GET', '/hbase/levelChart2/tanks', { token: admin.access_token })).body.data;
    assert.ok(Array.isArray(tanks));
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      if (!tanks.length) {
        await page.goto('/#/manager/hydtrend2');
        const pane = await waitForPage(page, '/manager/hydtrend2');
        await pane.getByTestId('trend-empty').filter({ hasText: tr('zh-CN', 'trend.noTanks') }).waitFor();
        return;
      }
      await page.goto(`/#/manager/hydtrend2?tankId=${tanks[0].id}&at=${Date.now() - 3600_000}`);
      const pane = await waitForPage(page, '/manager/hydtrend2');
      await pane.getByTestId('trend-chart').waitFor();
      await pane.getByTestId('trend-tank').filter({ hasText: tanks[0].stationName }).waitFor();
    });
  });
});
