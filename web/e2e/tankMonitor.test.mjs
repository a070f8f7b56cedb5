// 油罐监控 and 油罐监控2 against the demo fleet: a car that is loading or unloading (found through the
// table's API: its volume changes between two reads) shows on 油罐监控 with its compartments, and a
// level/volume on the page changes by itself (the /ws/live tank data); 油罐监控2 lists rows and exports.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tile, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);

/** Every compartment row of the admin's scope, keyed carId/no → volume. */
async function volumes(base, token) {
  const { body } = await api(base, 'POST', '/monitor-app/tankMonitor2VXE/page', { token, body: { pageNum: 1, pageSize: 500, onlineOnly: true } });
  assert.equal(body.code, 1, JSON.stringify(body));
  return new Map(body.data.list.filter((r) => r.hasReading).map((r) => [`${r.carId}/${r.no}`, r]));
}

describe('tank monitor pages', () => {
  // the demo trucks report every 2 s (simulated = wall time): a loading compartment's volume moves between
  // two reads a few seconds apart, and the page's next reading comes as soon
  const env = setup({ args: ['--demo-interval', '2s'] });

  test('a loading or unloading car’s level changes live on 油罐监控; 油罐监控2 lists and exports', async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    // a moving compartment: read the table until one's volume has changed between two reads
    let first = await volumes(env.base, admin.access_token);
    for (const until = Date.now() + 30_000; first.size === 0; first = await volumes(env.base, admin.access_token)) {
      assert.ok(Date.now() < until, 'the demo fleet reports levels within 30 s');
      await new Promise((r) => setTimeout(r, 1000));
    }
    let moving = null;
    const deadline = Date.now() + 90_000;
    while (!moving) {
      assert.ok(Date.now() < deadline, 'a demo compartment loads or unloads within 90 s');
      await new Promise((r) => setTimeout(r, 1000));
      const now = await volumes(env.base, admin.access_token);
      for (const [k, r] of now) {
        const was = first.get(k);
        if (was && was.volume !== r.volume) {
          moving = r;
          break;
        }
      }
    }

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'manager').click();
      await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: new RegExp(`^${zh('menu.tankMonitor')}$`) }).click();
      const pane = await waitForPage(page, '/manager/tankMonitor');
      await pane.getByText(zh('tankMonitor.pickCar')).waitFor();

      const picker = pane.locator('[data-testid="vehicle-picker"]');
      await picker.click();
      await page.keyboard.type(moving.plate.slice(-5));
      const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: moving.plate }).first();
      await option.waitFor();
      await option.click();

      const section = pane.locator(`[data-testid="compartment-${moving.no}"]`);
      await section.waitFor();
      await pane.locator('[data-testid="live-state"]').filter({ hasText: zh('tankMonitor.live') }).waitFor();
      const volume = section.locator('[data-testid="volume"]');
      const level = section.locator('[data-testid="level"]');
      const before = `${await level.textContent()} ${await volume.textContent()}`;
      assert.match(before, /mm .* L$/, `figures shown: ${before}`);
      // four devices, each with its state in words
      assert.equal(await section.locator('.tw-tank-device-state').count(), 4);
      // no reload, no click: the stream brings the next reading
      await page.waitForFunction(
        ([sel, was]) => {
          const el = document.querySelector(sel);
          if (!el) return false;
          const now = `${el.querySelector('[data-testid="level"]').textContent} ${el.querySelector('[data-testid="volume"]').textContent}`;
          return now !== was;
        },
        [`.tw-tank-page [data-testid="compartment-${moving.no}"]`, before],
        { timeout: 90_000 },
      );

      // the V20 calculator: the compartment's figures, converted by the server
      await section.locator('[data-testid="use-for-v20"]').click();
      await pane.locator('[data-testid="v20-run"]').click();
      await pane.locator('[data-testid="v20-result"], [data-testid="v20-error"]').first().waitFor();

      // 油罐监控2: rows, the link back, and the export
      await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: new RegExp(`^${zh('menu.tankMonitor2VXE')}$`) }).click();
      const table = await waitForPage(page, '/manager/tankMonitor2VXE');
      const rows = table.locator('.ant-table-tbody tr.ant-table-row');
      await rows.first().waitFor();
      assert.ok((await rows.count()) >= 1);
      assert.match(await table.locator('.ant-pagination-total-text').textContent(), /共 \d+ 条/);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        table.locator('button').filter({ hasText: /导\s*出/ }).click(),
      ]);
      assert.match(download.suggestedFilename(), /\.xlsx$/);
      await rows.first().locator('[data-testid="to-tank"]').click();
      await waitForPage(page, '/manager/tankMonitor');
    });
  });
});
