// The raw-data page finds a simulated car's frames: 0x0200 positions sent by the demo fleet over JT/T 808,
// shown as hex and decoded again.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, uiLogin } from './lib.mjs';

describe('raw data', () => {
  const env = setup();

  test('historyRecordVXE lists a car’s frames and decodes one', async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const cars = (await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token: admin.access_token, body: { code: 4, pageNum: 1, pageSize: 1 } })).body.data?.list ?? [];
    const plate = cars[0]?.plate ?? (await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token: admin.access_token, body: { pageNum: 1, pageSize: 1 } })).body.data.list[0].plate;
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/historyRecordVXE');
      const picker = page.locator('[data-testid="vehicle-picker"]:visible');
      await picker.click();
      await page.keyboard.type(plate.slice(0, 2));
      const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: plate }).first();
      await option.waitFor();
      await option.click();
      const form = page.locator('form.tw-filter-form:visible');
      // frames arrive every few seconds; query until this car's 0x0200 is there
      const deadline = Date.now() + 40_000;
      const row = page.locator('.ant-table-row', { hasText: '0x0200' }).first();
      while (!(await row.isVisible())) {
        assert.ok(Date.now() < deadline, 'a 0x0200 frame of the car within 40 s');
        await form.locator('button[type="submit"]').click();
        await page.waitForTimeout(2000);
      }
      assert.match(await row.textContent(), /7E02/i, 'the frame as it crossed the wire');
      await row.locator('.ant-table-row-expand-icon').click();
      await page.locator('[data-testid="decoded-location"]').first().waitFor();
    });
  });
});
