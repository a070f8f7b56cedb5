import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setup, uiLogin } from './lib.mjs';

describe('logout', () => {
  const env = setup();

  test('logging out from the user popover ends on login with empty localStorage and a revoked token', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      const token = await page.evaluate(() => localStorage.getItem('token'));
      assert.ok(token);

      const reloaded = page.waitForEvent('load', { timeout: 15_000 });
      await page.locator('[data-testid="user-menu"]').click();
      await page.locator('.ant-popover button').filter({ hasText: '退出登录' }).click();
      await reloaded;
      await page.waitForURL(/#\/login/);
      await page.locator('#account').waitFor();
      assert.equal(await page.evaluate(() => localStorage.length), 0);
      assert.equal(await page.locator('.tw-header').count(), 0);

      const status = await page.evaluate(
        (tk) => fetch('/authority-app/userInfo/current', { headers: { Authorization: `Bearer ${tk}` } }).then((r) => r.status),
        token,
      );
      assert.equal(status, 401, 'the old token is revoked');

      // a protected page now goes to login
      await page.goto('/#/access/userInfo');
      await page.waitForURL(/#\/login/);
    });
  });
});
