// Car tank events from the demo fleet (D36): the simulator's trucks load at their depots and unload at
// stations; the level detector records 装油 / 卸油 events and every valve change. A dispatcher finds one of
// them in 车辆事件记录 (its row: plate, compartment, kind, station, volumes, the trend link) and the valve
// changes on the second tab. Screenshots in zh-CN and en-US go to web/test-results/ when SHOTS is set.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { api, apiLogin, RESULTS_DIR, setup, tr, uiLogin, waitForPage } from './lib.mjs';

function shanghai(date) {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false,
  }).format(date);
}

describe('car tank events', () => {
  // simulated time 60 times faster: a depot load of 20–40 simulated minutes takes well under a minute
  const env = setup({ args: ['--demo-vehicles', '20', '--demo-speedup', '60'] });

  test('a load or unload of a demo truck shows in 车辆事件记录, and valve changes on its second tab', { timeout: 300_000 }, async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const deadline = Date.now() + 240_000;
    let ev;
    for (;;) {
      const r = await api(env.base, 'POST', '/monitor-app/carEventRecord/page', { token: admin.access_token, body: { pageNum: 1, pageSize: 50 } });
      assert.equal(r.body.code, 1, JSON.stringify(r.body));
      ev = r.body.data.list.find((e) => e.kind === 'load' || e.kind === 'unload');
      if (ev) break;
      assert.ok(Date.now() < deadline, 'a load or unload event within four minutes');
      await new Promise((res) => setTimeout(res, 2000));
    }
    assert.ok(ev.stationName, `a ${ev.kind} happens inside a fence: ${JSON.stringify(ev)}`);
    assert.ok(Math.abs(ev.change) > 200, JSON.stringify(ev));
    const kindText = tr('zh-CN', `carEvents.kinds.${ev.kind}`);

    for (const locale of ['zh-CN', 'en-US']) {
      await env.page(t, async (page) => {
        // the browser's language picks the console's (spec §1): at 60× the demo's level-I alarms keep
        // opening dialogs that would close the language menu under the pointer
        await uiLogin(page, 'admin', 'admin123');
        await page.waitForFunction((l) => document.documentElement.lang === l, locale);
        await page.goto('/#/manager/carEventRecord');
        const pane = await waitForPage(page, '/manager/carEventRecord');
        const lang = locale;
        // the simulator's clock runs ahead of the wall clock: the range ends a second after the event,
        // which then heads the newest-first list of its kind
        const endInput = pane.locator('form.tw-filter-form .ant-picker input').last();
        await endInput.click();
        await endInput.fill(shanghai(new Date(ev.startMs + 1000)));
        await endInput.press('Enter');
        await page.keyboard.press('Escape');
        // the event's vehicle (many trucks load at once: their events share a start)
        await pane.locator('[data-testid="vehicle-picker"]:visible').click();
        await page.keyboard.type(ev.plate.slice(0, 2));
        const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: ev.plate }).first();
        await option.waitFor();
        await option.click();
        await pane.locator('.ant-form-item', { hasText: tr(lang, 'carEvents.kind') }).locator('.ant-select').click();
        await page.locator(`.ant-select-item-option[title="${tr(lang, `carEvents.kinds.${ev.kind}`)}"]`).click();
        await pane.locator('form.tw-filter-form button[type="submit"], form.tw-filter-form button.ant-btn-primary').first().click();
        const row = pane.locator('.ant-table-row', { hasText: ev.plate }).filter({ hasText: ev.stationName }).first();
        await row.waitFor({ timeout: 30_000 });
        if (lang === 'zh-CN') {
          await row.getByTestId('event-kind').filter({ hasText: kindText }).waitFor();
          await row.getByText(`${ev.compartment} 号仓`).waitFor();
        }
        const href = await row.locator('a').last().getAttribute('href');
        assert.match(href, new RegExp(`hydtrend\\?carId=${ev.carId}&at=\\d+`));
        if (process.env.SHOTS) {
          mkdirSync(RESULTS_DIR, { recursive: true });
          await page.screenshot({ path: path.join(RESULTS_DIR, `carEvents-events-${lang}.png`) });
        }

        await pane.getByRole('tab', { name: tr(lang, 'carEvents.tabValves') }).click();
        await pane.locator('.ant-table-thead', { hasText: tr(lang, 'carEvents.device') }).waitFor();
        const valveEnd = pane.locator('form.tw-filter-form .ant-picker input').last();
        await valveEnd.click();
        await valveEnd.fill(shanghai(new Date(Date.now() + 24 * 3600_000))); // every change so far, whatever the simulator's clock
        await valveEnd.press('Enter');
        await page.keyboard.press('Escape');
        await pane.locator('form.tw-filter-form button[type="submit"], form.tw-filter-form button.ant-btn-primary').first().click();
        await pane.getByTestId('valve-change').first().waitFor({ timeout: 30_000 });
        const valveRow = pane.locator('.ant-table-row').filter({ has: page.getByTestId('valve-change') }).first();
        assert.ok((await valveRow.textContent()).includes(tr(lang, 'carEvents.outside')) || (await valveRow.locator('.ant-tag').count()) > 0);
        if (process.env.SHOTS) await page.screenshot({ path: path.join(RESULTS_DIR, `carEvents-valves-${lang}.png`) });
      }, { locale });
    }
  });
});
