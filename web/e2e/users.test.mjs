import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { api, apiLogin, RESULTS_DIR, setup, tile, toast, tr, uiLogin, waitForPage, toastDuring } from './lib.mjs';

describe('user management page', () => {
  const env = setup();

  test('admin adds a user with the form, finds it with the filter, deletes it after confirming', async (t) => {
    const name = `e2eu${Date.now() % 100000}`;
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'access').click();
      const firstPage = page.waitForResponse((r) => r.url().endsWith('/authority-app/userInfo/page'));
      await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: '用户管理' }).click();
      await waitForPage(page, '/access/userInfo');
      await firstPage;
      await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();

      // add
      await page.locator('.tw-page button').filter({ hasText: tr('zh-CN', 'userInfo.addTitle') }).click();
      const modal = page.locator('.ant-modal').filter({ hasText: tr('zh-CN', 'userInfo.addTitle') });
      // form fields by name, with or without the form's id prefix
      const field = (f) => modal.locator(`[id="${f}"], [id="userForm_${f}"]`);
      await modal.waitFor();
      await field('name').fill(name);
      await field('nickName').fill('端到端用户');
      await field('password').fill('Secret#123');
      await field('confirm').fill('Secret#123');
      await field('roleIds').click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first().click();
      await field('name').click(); // close the role list
      const inserted = page.waitForResponse((r) => r.url().endsWith('/authority-app/userInfo/insert'));
      await modal.locator('.ant-modal-footer button.ant-btn-primary').click();
      const insResp = await inserted;
      const insBody = JSON.parse(insResp.request().postData());
      assert.equal(insBody.name, name);
      assert.equal(insBody.roleIds.length, 1, 'the chosen role is sent');
      const ins = await insResp.json();
      assert.equal(ins.code, 1, JSON.stringify(ins));
      await toast(page, '添加成功').waitFor();
      await modal.waitFor({ state: 'hidden' });

      // filter
      const filtered = page.waitForResponse(
        (r) => r.url().endsWith('/authority-app/userInfo/page') && JSON.parse(r.request().postData() || '{}').name === name,
      );
      await page.locator('.tw-filter-form #name').fill(name);
      await page.locator('.tw-filter-form button[type="submit"]').click();
      const list = (await (await filtered).json()).data;
      assert.equal(list.total, 1, JSON.stringify(list));
      const rows = page.locator('.ant-table-tbody tr.ant-table-row');
      await page.waitForFunction(
        (n) => {
          const r = [...document.querySelectorAll('.ant-table-tbody tr.ant-table-row')];
          return r.length === 1 && r[0].innerText.includes(n);
        },
        name,
      );
      const row = rows.filter({ hasText: name });
      assert.ok(await row.getByText('端到端用户').count());

      // delete with confirmation
      await row.locator('button').filter({ hasText: /删\s*除/ }).click();
      const confirm = page.locator('.ant-modal-confirm').filter({ hasText: '确定要删除该数据吗' });
      await confirm.waitFor();
      const deleted = page.waitForResponse((r) => r.url().endsWith('/authority-app/userInfo/deleteByIds'));
      await toastDuring(page, '删除成功', async () => {
        await confirm.getByRole('button', { name: /确\s*定/ }).click();
        assert.equal((await (await deleted).json()).code, 1);
      });
      await rows.filter({ hasText: name }).waitFor({ state: 'detached' });
      await page.locator('.ant-table-tbody').filter({ hasText: tr('zh-CN', 'common.empty') }).waitFor();
    });

    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const after = await api(env.base, 'POST', '/authority-app/userInfo/page', { token: admin.access_token, body: { pageNum: 1, pageSize: 10, name } });
    assert.equal(after.body.data.total, 0, 'the user is gone on the server');
  });

  test('English at 1440 px: every header tile fits without scrolling, and each row shows its whole Delete link', async (t) => {
    await env.page(t, async (page) => {
      await page.addInitScript(() => localStorage.setItem('lang', 'en-US'));
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/access/userInfo');
      // scoped: home's own tables have rows too, and stay on screen until the users page has loaded
      const pane = await waitForPage(page, '/access/userInfo');
      const rows = pane.locator('.ant-table-tbody tr.ant-table-row');
      await rows.first().waitFor();
      mkdirSync(RESULTS_DIR, { recursive: true });
      await page.screenshot({ path: path.join(RESULTS_DIR, 'users--en-US-1440.png') });

      // the header: no tile cut off, no scroll arrows, tiles inside the header and left of the tools
      const tiles = await page.locator('.tw-header .tw-tiles').evaluate((n) => ({ sw: n.scrollWidth, cw: n.clientWidth }));
      assert.ok(tiles.sw <= tiles.cw + 1, `tiles overflow: ${JSON.stringify(tiles)}`);
      assert.equal(await page.locator('.tw-tiles-arrow').count(), 0, 'no scroll arrows at 1440 px');
      const tools = await page.locator('.tw-header .tw-tools').boundingBox();
      for (const box of await page.locator('.tw-header .tw-tile').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
        assert.ok(box.right <= tools.x + 1, `a tile runs under the header tools: ${JSON.stringify(box)}`);
      }

      // the Users table: each Delete link lies wholly inside its fixed actions cell and inside the table
      const table = await pane.locator('.ant-table-content, .ant-table-body').first().boundingBox();
      const n = await rows.count();
      assert.ok(n > 0);
      for (let i = 0; i < n; i++) {
        const cell = await rows.nth(i).locator('td.ant-table-cell-fix-right').boundingBox();
        const del = await rows.nth(i).locator('td.ant-table-cell-fix-right button').filter({ hasText: tr('en-US', 'common.delete') }).boundingBox();
        assert.ok(del, `row ${i}: no Delete link`);
        assert.ok(del.x >= cell.x - 1 && del.x + del.width <= cell.x + cell.width + 1, `row ${i}: Delete clipped by its cell ${JSON.stringify({ del, cell })}`);
        assert.ok(del.x + del.width <= table.x + table.width + 1, `row ${i}: Delete past the table's edge`);
      }
    }, { locale: 'en-US' });
  });
});
