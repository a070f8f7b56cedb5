import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setup, tile, toast, tr, uiLogin } from './lib.mjs';

describe('menu by permission', () => {
  const env = setup();

  test('dispatcher sees monitoring, alarms and waybills, not system settings; the server refuses user admin', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'dispatcher', 'dispatch123');
      await tile(page, 'home').waitFor();
      await tile(page, 'manager').filter({ hasText: '监控管理' }).waitFor();
      await tile(page, 'police').filter({ hasText: '报警管理' }).waitFor();
      assert.equal(await tile(page, 'access').count(), 0, '系统设置 tile must be hidden');
      assert.equal(await page.locator('.tw-header .tw-tiles').getByText('系统设置').count(), 0);
      // of the base data, only the waybill pages are the dispatcher's (issue 15)
      await tile(page, 'basedata').click();
      await page.locator('.tw-sider-title').filter({ hasText: '基础信息' }).waitFor();
      await page.locator('.tw-sider-menu').getByText('运单管理', { exact: true }).waitFor();
      assert.equal(await page.locator('.tw-sider-menu').getByText('油罐信息').count(), 0, '油罐信息 must be hidden');

      // The alarm module's pages show in the side menu.
      await tile(page, 'police').click();
      await page.locator('.tw-sider-title').filter({ hasText: '报警管理' }).waitFor();
      assert.ok((await page.locator('.tw-sider-menu .ant-menu-item').count()) > 0);
      assert.equal(await page.locator('.tw-sider-menu').getByText('用户管理').count(), 0);

      // The console hides it; the server refuses it too.
      const res = await page.evaluate(async () => {
        const r = await fetch('/authority-app/userInfo/page', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('token')}` },
          body: JSON.stringify({ pageNum: 1, pageSize: 10 }),
        });
        return { status: r.status, body: await r.json().catch(() => null) };
      });
      assert.equal(res.status, 403, JSON.stringify(res));
      assert.equal(res.body?.code, 0);
      assert.equal(res.body?.message, '没有权限执行此操作');
    });
  });

  for (const locale of ['zh-CN', 'zh-TW', 'en-US']) {
    test(`a page outside the role opened by URL shows the no-permission page, no 403 toasts (${locale})`, async (t) => {
      await env.page(t, async (page) => {
        const refused = [];
        page.on('response', (r) => { if (r.status() === 403) refused.push(r.url()); });
        // the saved language choice (zh-TW is never the browser rule's)
        await page.addInitScript((l) => localStorage.setItem('lang', l), locale);
        await uiLogin(page, 'dispatcher', 'dispatch123');
        await page.goto('/#/access/userInfo');
        const box = page.getByTestId('no-permission');
        await box.getByText(tr(locale, 'noPermission.title'), { exact: true }).waitFor();
        await box.getByText(tr(locale, 'noPermission.description').replace('{{page}}', tr(locale, 'menu.userInfo'))).waitFor();
        // the page never mounted: it asked the server nothing, so nothing came back refused
        assert.deepEqual(refused, []);
        assert.equal(await toast(page, tr(locale, 'noPermission.title')).count(), 0);
        assert.equal(await page.locator('.ant-message-notice-content').count(), 0, 'no toast');
        assert.equal(await page.locator('.tw-tabs [role="tab"][data-key="/access/userInfo"]').count(), 0, 'no tab for a refused page');
        // and the way out
        await box.getByRole('button').click();
        await page.waitForURL(/#\/home$/);
      }, { locale });
    });
  }

  test('admin sees system settings with the user page', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'access').filter({ hasText: '系统设置' }).click();
      await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: '用户管理' }).waitFor();
    });
  });
});
