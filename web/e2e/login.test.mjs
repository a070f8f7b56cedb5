import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { antdStyles, loginError, setup, submitLogin, uiLogin } from './lib.mjs';

describe('login', () => {
  const env = setup();

  test('wrong password shows the server warning and stays on login', async (t) => {
    await env.page(t, async (page) => {
      const resp = page.waitForResponse((r) => r.url().endsWith('/authority-app/logIn'));
      await submitLogin(page, 'admin', 'definitely-wrong');
      const body = await (await resp).json();
      assert.equal(body.code, 0);
      await loginError(page, '用户名或密码错误').waitFor();
      assert.match(page.url(), /#\/login/);
      assert.equal(await antdStyles(page), 0, 'the login route loads no antd');
      assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
      await page.locator('#account').waitFor();
    });
  });

  test('right password lands on /#/home with the shell', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      assert.match(page.url(), /#\/home$/);
      await page.locator('.tw-header .tw-brand').filter({ hasText: '油罐车智能监控平台' }).waitFor();
      const tiles = page.locator('.tw-header .tw-tiles button.tw-tile');
      for (const name of ['首页', '监控管理', '报警管理', '系统设置']) {
        await tiles.filter({ hasText: name }).first().waitFor();
      }
      assert.ok((await tiles.count()) >= 5, 'admin sees all module tiles');
      await page.locator('[data-testid="user-menu"]').filter({ hasText: /\S/ }).waitFor();
      await page.locator('.tw-tabs [role="tab"][data-key="/home"]').waitFor();
      assert.ok((await antdStyles(page)) > 0, 'the signed-in console has loaded antd');
    });
  });

  test('user name with surrounding spaces still signs in (trimmed)', async (t) => {
    await env.page(t, async (page) => {
      const req = page.waitForRequest((r) => r.url().endsWith('/authority-app/logIn'));
      await submitLogin(page, '  admin  ', 'admin123');
      assert.equal(JSON.parse((await req).postData()).account, 'admin');
      await page.waitForURL(/#\/home$/);
      await page.locator('.tw-header .tw-tiles').waitFor();
    });
  });

  test('a signed-in user opening #/login is sent to home', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/access/userInfo');
      await page.waitForURL(/#\/access\/userInfo/);
      await page.goto('/#/login');
      await page.waitForURL(/#\/home$/);
      await page.locator('.tw-header .tw-tiles').waitFor();
      assert.equal(await page.locator('#account').count(), 0);
    });
  });

  test('opening a page while signed out goes to login', async (t) => {
    await env.page(t, async (page) => {
      await page.goto('/#/access/userInfo');
      await page.waitForURL(/#\/login/);
      await page.locator('#account').waitFor();
      assert.equal(await page.locator('.tw-header .tw-tiles').count(), 0);
    });
  });
});
