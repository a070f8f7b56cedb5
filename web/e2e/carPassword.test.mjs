// Vehicle lock passwords end to end: the administrator sets a password for a demo car on 车辆密码 (it
// goes down as 0xE5 to the car's simulated terminal, or is kept pending if that terminal is offline),
// views it (the confirm says the view is recorded; the password shows), and finds the record of that
// view — the user and the car — on 密码查看记录.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tile, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);
/** antd puts a space between two CJK characters of a button (关 闭), so match either. */
const spaced = (text) => new RegExp(`^${[...text].join('\\s*')}$`);
const PASSWORD = '370514';

describe('car passwords', () => {
  const env = setup();

  test('set a password, view it (recorded), and see the record on 密码查看记录', async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const { body } = await api(env.base, 'POST', '/base-info-app/carPassword/page', { token: admin.access_token, body: { pageNum: 1, pageSize: 1 } });
    assert.equal(body.code, 1, JSON.stringify(body));
    const plate = body.data.list[0].plate;
    assert.equal(body.data.list[0].passwordSet, false, 'a fresh demo car has no password');

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'basedata').click();
      await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: zh('menu.carPassword') }).click();
      const list = await waitForPage(page, '/basedata/carPassword');
      await list.locator('input#plate').fill(plate);
      await list.locator('form.tw-filter-form button[type="submit"]').click();
      const row = list.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: plate });
      await row.getByText(zh('carPassword.notSet')).waitFor();

      // set: six digits typed in; the result says whether the terminal has it
      await row.getByRole('button', { name: zh('carPassword.set') }).click();
      const setDialog = page.locator('.ant-modal').filter({ hasText: zh('carPassword.newPassword') });
      await setDialog.getByPlaceholder('000000').fill(PASSWORD);
      const saved = page.waitForResponse((r) => r.url().endsWith('/base-info-app/carPassword/set'));
      await setDialog.getByRole('button', { name: zh('carPassword.save') }).click();
      const setBody = await (await saved).json();
      assert.equal(setBody.code, 1, JSON.stringify(setBody));
      assert.ok(!JSON.stringify(setBody).includes(PASSWORD), 'set does not echo the password');
      const result = page.locator('[data-testid="set-result"]');
      await result.getByText(setBody.data.message).waitFor();
      await page.locator('.ant-modal').filter({ has: result }).getByRole('button', { name: spaced(zh('common.close')) }).click();
      await row.getByText('●●●●●●').waitFor();

      // view: confirm (recorded), then the password, large, with a copy button
      await row.getByRole('button', { name: zh('carPassword.view') }).click();
      const confirm = page.locator('.ant-modal').filter({ hasText: zh('carPassword.confirmTitle') });
      await confirm.getByText(tr('zh-CN', 'carPassword.confirmText').replace('{{plate}}', plate)).waitFor();
      await confirm.locator('textarea').fill('e2e 司机在无信号区');
      await confirm.getByRole('button', { name: zh('carPassword.confirmView') }).click();
      const shown = page.locator('[data-testid="revealed-password"]');
      await shown.waitFor();
      assert.equal((await shown.innerText()).trim(), PASSWORD);
      await page.locator('.ant-modal').filter({ has: shown }).getByRole('button', { name: spaced(zh('common.close')) }).click();

      // the record: this user, this car. On a busy machine the hash changes at once and React renders the new
      // page later; meanwhile the car-password list, with this plate, is still on screen, and the unscoped row
      // locator found its row, then none (0 !== 1). The rows are looked for inside the records page.
      await tile(page, 'police').click();
      await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: zh('menu.passwordViewingRecord') }).click();
      const records = await waitForPage(page, '/police/passwordViewingRecord');
      const rec = records.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: plate });
      await rec.first().waitFor();
      assert.equal(await rec.count(), 1);
      await rec.getByText('admin', { exact: true }).waitFor();
      await rec.getByText('e2e 司机在无信号区').waitFor();
      await rec.getByText('127.0.0.1').waitFor();
    });
  });
});
