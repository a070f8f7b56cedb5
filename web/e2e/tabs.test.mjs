import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openMenuItem, setup, tabKeys, tile, uiLogin, until, waitForPage } from './lib.mjs';

const HOME = '/home';
const PAGES = [
  ['用户管理', '/access/userInfo'],
  ['角色管理', '/access/roleInfo'],
  ['组织管理', '/access/groupInfo'],
];

async function openViaSideMenu(page, label, path) {
  await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: label }).click();
  await waitForPage(page, path);
  await page.locator(`.tw-tabs [role="tab"][data-key="${path}"][aria-selected="true"]`).waitFor();
}

async function waitTabs(page, expected) {
  await page.waitForFunction(
    (exp) => JSON.stringify([...document.querySelectorAll('.tw-tabs [role="tab"]')].map((e) => e.getAttribute('data-key'))) === JSON.stringify(exp),
    expected,
  ).catch(async (e) => {
    throw new Error(`tabs: expected ${JSON.stringify(expected)}, got ${JSON.stringify(await tabKeys(page))} (${e.message})`);
  });
}

/** Signs in as admin and opens 修改密码 from the user menu; returns its tab. */
async function openPasswordTab(page) {
  await uiLogin(page, 'admin', 'admin123');
  await page.locator('[data-testid="user-menu"]').click();
  await page.locator('.ant-popover button').filter({ hasText: '修改密码' }).click();
  await waitForPage(page, '/rePassword');
  const tab = page.locator('.tw-tabs [role="tab"][data-key="/rePassword"]');
  await tab.waitFor();
  return tab;
}

/** The confirm the change-password tab asks before it closes. */
const closeConfirm = (page) => page.locator('.ant-modal-confirm').filter({ hasText: '确定要关闭这一页吗' });

describe('tabs', () => {
  const env = setup();

  test('close others and close all from the right-click menu (home stays pinned)', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'access').click();
      for (const [label, path] of PAGES) await openViaSideMenu(page, label, path);
      await waitTabs(page, [HOME, ...PAGES.map((p) => p[1])]);
      // home has no close button: the shell pins it
      assert.equal(await page.locator(`.tw-tabs [role="tab"][data-key="${HOME}"] .tw-tab-close`).count(), 0);

      const middle = page.locator('.tw-tabs [role="tab"][data-key="/access/roleInfo"]');
      await middle.click({ button: 'right' });
      await openMenuItem(page, '关闭其他').click();
      await waitTabs(page, [HOME, '/access/roleInfo']);
      await waitForPage(page, '/access/roleInfo');

      await middle.click({ button: 'right' });
      await openMenuItem(page, '关闭全部').click();
      await waitTabs(page, [HOME]);
      await page.waitForURL(/#\/home$/);
    });
  });

  test('closing the change-password tab asks first; Cancel keeps it, OK closes it', async (t) => {
    await env.page(t, async (page) => {
      const tab = await openPasswordTab(page);
      const dialog = closeConfirm(page);
      await tab.locator('.tw-tab-close').click();
      await dialog.waitFor();
      // the test browser asks for reduced motion (lib.mjs): the dialog is there without antd's zoom
      assert.doesNotMatch(await dialog.getAttribute('class'), /ant-zoom/);
      await dialog.getByRole('button', { name: /取\s*消/ }).click();
      await dialog.waitFor({ state: 'detached' });
      await tab.waitFor();
      assert.match(page.url(), /#\/rePassword$/);

      await tab.locator('.tw-tab-close').click();
      await dialog.waitFor();
      await dialog.getByRole('button', { name: /确\s*定/ }).click();
      await tab.waitFor({ state: 'detached' });
      await page.waitForURL(/#\/home$/);
      await waitTabs(page, [HOME]);
    });
  });

  test('without the reduce-motion setting the same dialog zooms in, as antd draws it', async (t) => {
    await env.page(t, async (page) => {
      const tab = await openPasswordTab(page);
      // every class a dialog carries from the moment it is added, recorded in the page
      await page.evaluate(() => {
        window.__modalClasses = [];
        const seen = (el) => el.classList?.contains('ant-modal') && window.__modalClasses.push(el.className);
        new MutationObserver((records) => {
          for (const r of records) {
            if (r.type === 'attributes') seen(r.target);
            for (const n of r.addedNodes) if (n.querySelectorAll) [n, ...n.querySelectorAll('.ant-modal')].forEach(seen);
          }
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
      });
      await tab.locator('.tw-tab-close').click();
      await closeConfirm(page).waitFor();
      await until(async () => (await page.evaluate(() => window.__modalClasses)).some((c) => /ant-zoom-appear/.test(c)), { what: 'the zoom-in' });
    }, { reducedMotion: 'no-preference' });
  });
});
