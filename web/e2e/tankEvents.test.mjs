// Station tank events against the demo: the in-process simulator's station gauges answer the TLS
// protocol, the collector polls them every 2 s, the demo trucks (60× speed) unload at stations and the
// gauges record those deliveries (202), which the page lists as 卸油入库 with before/after volumes and a
// trend link.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tr, uiLogin, waitForPage } from './lib.mjs';

const ARGS = ['--demo-speedup', '60', '--gauge-interval', '2s'];

function shanghai(date) {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false,
  }).format(date);
}

async function openPage(page) {
  await page.goto('/#/manager/tankEventRecord');
  return waitForPage(page, '/manager/tankEventRecord');
}

describe('station tank events', () => {
  const env = setup({ args: ARGS });

  test('the gauges show online and a demo truck’s unload appears as a delivery', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      const pane = await openPage(page);
      // every demo station's gauge answers: the summary counts them online, none offline or garbage
      const counts = pane.getByTestId('gauge-panel').getByTestId('gauge-counts');
      const online = tr('zh-CN', 'tankEvents.state.online');
      await counts.filter({ hasText: new RegExp(`${online} [1-9]`) }).waitFor({ timeout: 30_000 });
      const text = await counts.textContent();
      assert.match(text, new RegExp(`${tr('zh-CN', 'tankEvents.state.offline')} 0`), `no gauge offline: ${text}`);
      assert.match(text, new RegExp(`${tr('zh-CN', 'tankEvents.state.garbage')} 0`), `no gauge answering garbage: ${text}`);
      // unfolded, the list shows the gauges online
      await pane.getByTestId('gauge-panel').locator('.ant-collapse-header').click();
      await pane.getByTestId('gauge-state-online').first().waitFor();

      // wait (condition, not sleep) until a delivery from a demo truck's unload is recorded
      const admin = await apiLogin(env.base, 'admin', 'admin123');
      let delivery;
      for (const deadline = Date.now() + 240_000; Date.now() < deadline;) {
        const r = await api(env.base, 'POST', '/monitor-app/tankEventRecord/page', { token: admin.access_token, body: { kind: 'delivery', pageSize: 1 } });
        if (r.body.data?.total > 0) {
          delivery = r.body.data.list[0];
          break;
        }
        await new Promise((res) => setTimeout(res, 1000));
      }
      assert.ok(delivery, 'a delivery event within 4 minutes of demo time at 60×');
      assert.ok(delivery.afterL - delivery.beforeL > 1000, `the tank filled: ${delivery.beforeL} → ${delivery.afterL}`);

      // the page lists it, filtered by kind
      // at 60× the demo's level-I alarms keep opening 系统信息 dialogs; closing one closes an open select
      // too, so open it again until the option is chosen
      const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: tr('zh-CN', 'tankEvents.kinds.delivery') });
      for (let attempt = 1; ; attempt++) {
        try {
          await pane.locator('#kind').click({ force: true });
          await option.click({ timeout: 5000 });
          break;
        } catch (e) {
          if (attempt === 5) throw e;
        }
      }
      // the simulator's clock runs ahead of the wall clock (the gauges record a delivery at the truck's
      // times): the range ends a second after the delivery, which then heads the newest-first list
      const endInput = pane.locator('form .ant-picker input').last();
      await endInput.click();
      await endInput.fill(shanghai(new Date(delivery.startAt + 1000)));
      await endInput.press('Enter');
      await page.keyboard.press('Escape');
      await pane.locator('form button[type="submit"]').click();
      const row = pane.locator('.ant-table-row').filter({ hasText: delivery.stationName }).first();
      await row.waitFor({ timeout: 30_000 });
      await row.getByTestId('kind-delivery').waitFor();
      const href = await row.getByTestId('trend-link').getAttribute('href');
      assert.match(href, new RegExp(`hydtrend2\\?tankId=${delivery.tankId}&at=\\d+`));
    });
  });

  test('the station tank states are scoped and the page reads in English', async (t) => {
    await env.page(t, async (page) => {
      const admin = await apiLogin(env.base, 'admin', 'admin123');
      const customer = await apiLogin(env.base, 'customer', 'customer123');
      const all = (await api(env.base, 'POST', '/monitor-app/groundTank/status', { token: admin.access_token, body: {} })).body.data;
      assert.ok(all.length > 80, `demo ground tanks: ${all.length}`);
      const own = await api(env.base, 'POST', '/monitor-app/groundTank/status', { token: customer.access_token, body: {} });
      // the demo customer (a subsidiary) either reads its own stations' tanks only, or lacks the page
      if (own.status === 403) assert.equal(own.body.code, 0);
      else {
        assert.equal(own.body.code, 1, JSON.stringify(own.body));
        assert.ok(own.body.data.length > 0 && own.body.data.length < all.length, `a subsidiary sees ${own.body.data.length} of ${all.length}`);
      }
      await uiLogin(page, 'admin', 'admin123');
      const pane = await openPage(page);
      await pane.getByText(tr('en-US', 'tankEvents.gauges.title')).first().waitFor();
      await pane.getByText(tr('en-US', 'tankEvents.trend')).first().waitFor();
    }, { locale: 'en-US' });
  });
});
