import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, toast, uiLogin } from './lib.mjs';

// A system message sent from the message page reaches the addressed user's open console live (MQTT
// over WebSocket at /mqtt) and nobody else's.
describe('system messages', () => {
  const env = setup();

  async function signedIn(account, password) {
    const context = await env.browser.newContext({ locale: 'zh-CN', baseURL: env.base, viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await uiLogin(page, account, password);
    return { context, page };
  }

  test('admin sends to the dispatcher: the dispatcher sees 系统信息 without reload, the customer nothing', async (t) => {
    const others = [];
    try {
      await env.page(t, async (page) => {
        const disp = await signedIn('dispatcher', 'dispatch123');
        const cust = await signedIn('customer', 'customer123');
        others.push(disp.context, cust.context);

        // both consoles are connected to /mqtt (the recipient picker shows presence)
        const admin = await apiLogin(env.base, 'admin', 'admin123');
        const deadline = Date.now() + 15_000;
        for (;;) {
          const { body } = await api(env.base, 'GET', '/authority-app/message/users', { token: admin.access_token });
          const online = new Set(body.data.filter((u) => u.online).map((u) => u.name));
          if (online.has('dispatcher') && online.has('customer')) break;
          assert.ok(Date.now() < deadline, `consoles not online: ${[...online]}`);
          await new Promise((r) => setTimeout(r, 200));
        }

        await uiLogin(page, 'admin', 'admin123');
        await page.goto('/#/access/message');
        await page.getByRole('button', { name: '发送消息' }).click();
        const dialog = page.locator('.ant-modal').filter({ hasText: '接收用户' });
        const title = `系统维护通知 ${Date.now()}`;
        await dialog.getByLabel('标题').fill(title);
        await dialog.getByLabel('内容').fill('今晚 22:00 升级，请提前保存。');
        await dialog.getByLabel('接收用户').click();
        await page.keyboard.type('dispatcher');
        await page.locator('.ant-select-item-option').filter({ hasText: '(dispatcher)' }).click();
        await page.keyboard.press('Escape');
        await dialog.getByRole('button', { name: /发\s*送/ }).click();
        await toast(page, '已发送给 1 个用户').waitFor();

        const box = disp.page.locator('.ant-modal-confirm').filter({ hasText: '系统信息' });
        await box.waitFor();
        assert.ok((await box.textContent()).includes(title));
        assert.ok((await box.textContent()).includes('今晚 22:00 升级'));

        // the sent list shows it; the customer, not addressed, got no dialog
        await page.locator('.ant-table-row').filter({ hasText: title }).waitFor();
        await new Promise((r) => setTimeout(r, 1000));
        assert.equal(await cust.page.locator('.ant-modal-confirm').count(), 0);
      });
    } finally {
      for (const c of others) await c.close().catch(() => undefined);
    }
  });
});
