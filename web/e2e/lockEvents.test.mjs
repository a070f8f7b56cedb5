// 蓝牙锁记录 on the running demo: the demo trucks' locks report (item 0xE6) as they load and unload, and
// the page lists those events with the totals of the filter (the 开锁 total equals the rows the 开锁
// filter lists); a remote unlock from the page becomes a command acknowledged by the simulated
// terminal, whose locks answer with remote events shown under that command; the export is a workbook.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, toast, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);

describe('lock events page', () => {
  const env = setup({ args: ['--demo-vehicles', '12', '--demo-speedup', '60'] });

  test('demo events, a remote unlock from the page and its remote events, a real export', { timeout: 90_000 }, async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const call = async (url, body) => (await api(env.base, 'POST', url, { token: admin.access_token, body })).body;
    // the demo fleet loads within a simulated half hour (30 s here): wait until its locks have reported
    let total = 0;
    for (const deadline = Date.now() + 60_000; total === 0; ) {
      total = (await call('/lock-app/blueLockRecord/page', { pageSize: 1 })).data.total;
      if (total === 0 && Date.now() > deadline) assert.fail('no lock event from the demo fleet within a minute');
      if (total === 0) await new Promise((r) => setTimeout(r, 500)); // polling the condition
    }
    const cars = (await call('/monitor-app/realTimeMoitoring/findCars', { carNumber: '', pageNum: 1, pageSize: 1 })).data.list;
    const car = cars[0];
    // close every lock of the car first: it may be loading with its locks open
    assert.equal((await call('/lock-app/blueLockRecord/command', { carId: car.carId, action: 'lock' })).code, 1);

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/blueLockRecord');
      const pane = await waitForPage(page, '/manager/blueLockRecord');
      const rows = pane.locator('.ant-table-tbody tr.ant-table-row');
      await rows.first().waitFor();

      // the 开锁 total against the rows of the 开锁 filter
      await pane.getByTestId('lock-event-filter').click();
      await page.locator('.ant-select-item-option').filter({ hasText: new RegExp(`^${zh('lockEvents.event.1')}$`) }).click();
      const listed = page.waitForResponse((r) => r.url().endsWith('/lock-app/blueLockRecord/page'));
      await pane.getByRole('button', { name: /查\s*询/ }).click();
      const body = await (await listed).json();
      const opened = body.data.counts.opened;
      assert.ok(opened > 0 && body.data.total === opened && body.data.counts.closed === 0, JSON.stringify(body.data.counts));
      await pane.getByTestId('lock-counts').getByText(zh('lockEvents.countOpened').replace('{{n}}', String(opened))).waitFor();
      await pane.locator('.ant-pagination-total-text').filter({ hasText: `共 ${opened} 条` }).waitFor();
      assert.equal(await rows.filter({ hasText: zh('lockEvents.event.2') }).count(), 0);

      // a real workbook
      const [download] = await Promise.all([page.waitForEvent('download'), pane.getByRole('button', { name: /导\s*出/ }).click()]);
      assert.match(download.suggestedFilename(), /\.xlsx$/);
      assert.equal(readFileSync(await download.path()).subarray(0, 2).toString(), 'PK');

      // the remote unlock of compartment 1 from the page
      await pane.getByRole('tab', { name: zh('lockEvents.tabCommands') }).click();
      await pane.getByTestId('lock-command').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('command-car').click();
      await page.keyboard.type(car.plate.replace('·', '').slice(0, 4));
      await page.locator('.ant-select-item-option').filter({ hasText: car.plate }).first().click();
      await dialog.getByText(zh('lockEvents.allCompartments')).click();
      await dialog.locator('.ant-checkbox-wrapper').filter({ hasText: /^1$/ }).click();
      await dialog.getByRole('button', { name: new RegExp(zh('lockEvents.send').split('').join('\\s*')) }).click();
      await toast(page, zh('lockEvents.unlockDone')).waitFor({ timeout: 30_000 });
      const row = pane.locator('tr.ant-table-row').filter({ hasText: car.plate }).filter({ hasText: zh('lockEvents.unlock') }).first();
      await row.filter({ hasText: zh('lockEvents.status.ok') }).waitFor();
      await row.filter({ hasText: 'admin' }).waitFor();
      // its remote opening arrives with the terminal's next report: refresh until the row counts it
      for (const deadline = Date.now() + 30_000; ; ) {
        if ((await row.locator('td').last().innerText()).trim() === '1') break;
        assert.ok(Date.now() < deadline, 'the remote opening was not filed under the command');
        // listen before clicking: the answer can come before a listener set up after the click
        const answered = page.waitForResponse((r) => r.url().endsWith('/lock-app/blueLockRecord/commands'));
        await pane.getByRole('button', { name: zh('common.refresh') }).click();
        await answered;
      }
      await row.locator('.ant-table-row-expand-icon').click();
      const caused = pane.locator('.ant-table-expanded-row');
      await caused.getByText(zh('lockEvents.method.1')).waitFor();
      await caused.getByText(zh('lockEvents.event.1')).waitFor();
    });
  });
});
