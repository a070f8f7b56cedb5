import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, dismissLiveDialogs, newContext, setup, toast, tr, uiLogin } from './lib.mjs';

// A system message sent from the message page reaches the addressed user's open console live (MQTT
// over WebSocket at /mqtt) and nobody else's.
describe('system messages', () => {
  const env = setup();

  /** Waits until every console of `names` is connected to /mqtt (the recipient picker shows presence). */
  async function online(token, names) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { body } = await api(env.base, 'GET', '/authority-app/message/users', { token });
      const on = new Set(body.data.filter((u) => u.online).map((u) => u.name));
      if (names.every((n) => on.has(n))) return body.data;
      assert.ok(Date.now() < deadline, `consoles not online: ${[...on]}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async function signedIn(account, password) {
    const context = await newContext(env);
    const page = await context.newPage();
    await uiLogin(page, account, password);
    return { context, page };
  }

  test('admin sends to the dispatcher: the dispatcher sees 系统信息 without reload, the customer nothing', async (t) => {
    const others = [];
    try {
      await env.page(t, async (page) => {
        const title = `系统维护通知 ${Date.now()}`;
        const disp = await signedIn('dispatcher', 'dispatch123');
        await dismissLiveDialogs(disp.page, { except: title });
        const cust = await signedIn('customer', 'customer123');
        others.push(disp.context, cust.context);

        // both consoles are connected to /mqtt (the recipient picker shows presence)
        const admin = await apiLogin(env.base, 'admin', 'admin123');
        await online(admin.access_token, ['dispatcher', 'customer']);

        await uiLogin(page, 'admin', 'admin123');
        await page.goto('/#/access/message');
        await page.getByRole('button', { name: '发送消息' }).click();
        const dialog = page.locator('.ant-modal').filter({ hasText: '接收用户' });
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

  test('live dialogs do not pile up: one at a time with a count waiting, a header list, and once read they never pop up again', async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const stamp = Date.now();
    const titles = [1, 2, 3].map((n) => `通知${n} ${stamp}`);
    await env.page(t, async (page) => {
      await uiLogin(page, 'dispatcher', 'dispatch123');
      const users = await online(admin.access_token, ['dispatcher']);
      const me = users.find((u) => u.name === 'dispatcher').id;
      for (const title of titles) {
        const { body } = await api(env.base, 'POST', '/authority-app/message/send', { token: admin.access_token, body: { title, content: '请查看', userIds: [me], groupIds: [] } });
        assert.equal(body.code, 1, JSON.stringify(body));
      }
      // read them one by one (demo alarms may be among them): never two dialogs, the rest counted as waiting
      const visible = page.locator('.ant-modal-confirm-body-wrapper:visible');
      const unread = new Set(titles);
      let sawWaiting = false;
      while (unread.size) {
        await visible.first().waitFor();
        assert.equal(await visible.count(), 1, 'one live dialog at a time');
        const text = await visible.first().innerText();
        if (/还有 \d+ 条消息等待查看/.test(text)) sawWaiting = true;
        for (const title of titles) if (text.includes(title)) unread.delete(title);
        // this very dialog (the next one opens as soon as it closes, so a locator would move on to that one)
        const wrap = await page.locator('.ant-modal-wrap').filter({ has: visible.first() }).elementHandle();
        const close = await wrap.$('.ant-modal-close');
        if (close) await close.click();
        else await (await wrap.$$('.ant-modal-confirm-btns button')).at(-1).click();
        await wrap.waitForElementState('hidden', { timeout: 30_000 }); // a loaded machine can take seconds to close it
      }
      assert.ok(sawWaiting, 'the first dialog said how many were waiting');

      // a new page of the console (reload): the read ones stay read, listed in the header, not shown again
      // demo alarms that arrive meanwhile are closed as they come; ours, if one popped up again, would stay
      await dismissLiveDialogs(page, { except: String(stamp) });
      await page.reload();
      await page.locator('.tw-header .tw-tiles').waitFor();
      await online(admin.access_token, ['dispatcher']);
      await page.getByTestId('live-inbox-button').click();
      const list = page.getByTestId('live-inbox');
      for (const title of titles) {
        const item = list.locator('.ant-list-item').filter({ hasText: title });
        await item.getByText(tr('zh-CN', 'live.read'), { exact: true }).waitFor();
      }
      for (const title of titles) assert.equal(await page.locator('.ant-modal-confirm:visible').filter({ hasText: title }).count(), 0, `${title} popped up again`);
      // and any of them opens again from the list
      await list.locator('.ant-list-item').filter({ hasText: titles[1] }).click();
      await page.locator('.ant-modal-confirm:visible').filter({ hasText: titles[1] }).waitFor();
    }, { liveDialogs: 'keep' });
  });
});
