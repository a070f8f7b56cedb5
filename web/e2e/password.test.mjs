import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, submitLogin, toast, uiLogin, waitForPage, toastDuring } from './lib.mjs';

describe('change password', () => {
  const env = setup();

  test('a fresh user changes the password, is logged out, and only the new password works', async (t) => {
    // A user of its own, so no other test depends on (or is broken by) the change.
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const token = admin.access_token;
    const disp = await api(env.base, 'POST', '/authority-app/userInfo/page', { token, body: { pageNum: 1, pageSize: 10, name: 'dispatcher' } });
    const dispatcher = disp.body.data.list.find((u) => u.name === 'dispatcher');
    assert.ok(dispatcher?.roleIds?.length, `dispatcher has a role: ${JSON.stringify(disp.body)}`);
    const roles = await api(env.base, 'POST', '/authority-app/roleInfo/list', { token, body: {} });
    assert.equal(roles.body.code, 1);
    assert.ok(roles.body.data.some((r) => r.id === dispatcher.roleIds[0]));

    const name = `e2epw${Date.now() % 100000}`;
    const oldPw = 'OldPass#1';
    const newPw = 'NewPass#2';
    const ins = await api(env.base, 'POST', '/authority-app/userInfo/insert', {
      token,
      body: { name, nickName: 'E2E 改密', password: oldPw, phone: '', email: '', platform: false, groupId: admin.groupId, roleIds: [dispatcher.roleIds[0]], status: 1 },
    });
    assert.equal(ins.body.code, 1, JSON.stringify(ins.body));

    await env.page(t, async (page) => {
      await uiLogin(page, name, oldPw);
      await page.locator('[data-testid="user-menu"]').click();
      await page.locator('.ant-popover button').filter({ hasText: '修改密码' }).click();
      await waitForPage(page, '/rePassword');
      await page.locator('#oldPassword').fill(oldPw);
      await page.locator('#newPassword').fill(newPw);
      await page.locator('#confirm').fill(newPw);

      const reloaded = page.waitForEvent('load', { timeout: 15_000 });
      const resp = page.waitForResponse((r) => r.url().endsWith('/authority-app/userInfo/passwordUpdate'));
      await toastDuring(page, '密码修改成功', async () => {
        await page.locator('.tw-page form button[type="submit"]').click();
        assert.equal((await (await resp).json()).code, 1);
      });
      // then logged out: back on the login page after the reload
      await reloaded;
      await page.waitForURL(/#\/login/);
      await page.locator('#account').waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);

      await submitLogin(page, name, oldPw);
      await toast(page, '用户名或密码错误').waitFor();
      assert.match(page.url(), /#\/login/);

      await uiLogin(page, name, newPw);
    });
    await assert.rejects(apiLogin(env.base, name, oldPw));
  });
});
