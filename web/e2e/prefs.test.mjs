// Personal settings (个人设置, issue 18): saved on the server, in force at once, after a reload and at the
// next sign-in from another browser.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setup, toast, tr, uiLogin, waitForPage } from './lib.mjs';

/** Opens the car list (40 demo cars) and returns the pageSize its first request asked for. */
async function openCarList(page) {
  const resp = page.waitForResponse((r) => r.url().endsWith('/base-info-app/carInfo/page') && r.status() === 200);
  await page.goto('/#/basedata/groupCar');
  const pane = await waitForPage(page, '/basedata/groupCar');
  const asked = JSON.parse((await resp).request().postData() ?? '{}').pageSize;
  return { pane, asked };
}

/** The list shows `n` rows a page, and the console is dark: <html data-theme>, antd's dark layout. */
async function expectPrefsInForce(page, n) {
  const { pane, asked } = await openCarList(page);
  assert.equal(asked, n, 'the list asks for the preferred page size');
  await pane.locator('.ant-pagination-options .ant-select-selection-item').filter({ hasText: String(n) }).waitFor();
  await page.waitForFunction(
    (want) => document.querySelectorAll('.tw-content .ant-table-tbody tr.ant-table-row').length === want,
    n,
  );
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  // antd's dark algorithm: the layout is black, the bar over the tabs is dark (not the light #fff)
  const colors = await page.evaluate(() => ({
    layout: getComputedStyle(document.querySelector('.tw-shell')).backgroundColor,
    bar: getComputedStyle(document.querySelector('.tw-bar')).backgroundColor,
  }));
  assert.equal(colors.layout, 'rgb(0, 0, 0)', JSON.stringify(colors));
  assert.notEqual(colors.bar, 'rgb(255, 255, 255)', JSON.stringify(colors));
}

describe('personal settings', () => {
  const env = setup();

  test('page size 20 and the dark theme: applied on save, after a reload, and at sign-in in a fresh browser', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
      assert.equal((await openCarList(page)).asked, 10, 'the default page size');

      await page.locator('[data-testid="user-menu"]').click();
      await page.locator('[data-testid="open-prefs"]').click();
      const dialog = page.locator('.ant-modal').filter({ hasText: tr('zh-CN', 'prefs.title') });
      await dialog.waitFor();
      await dialog.locator('label.ant-radio-button-wrapper').filter({ hasText: tr('zh-CN', 'prefs.themeDark') }).click();
      await dialog.locator('label.ant-radio-button-wrapper').filter({ hasText: /^20$/ }).click();
      const saved = page.waitForRequest((r) => r.url().endsWith('/base-info-app/userSetting/edit'));
      // the open list follows at once (its size was never changed on it)
      const relisted = page.waitForRequest((r) => r.url().endsWith('/base-info-app/carInfo/page') && JSON.parse(r.postData() ?? '{}').pageSize === 20);
      await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      const body = JSON.parse((await saved).postData());
      assert.deepEqual(body.prefs, { theme: 'dark', mapLayer: 'normal', pageSize: 20 });
      await toast(page, tr('zh-CN', 'common.modifySuccess')).waitFor();
      await dialog.waitFor({ state: 'hidden' });
      // in force without a reload
      await relisted;
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');

      await page.goto('/#/home');
      await page.reload();
      await page.locator('.tw-header .tw-tiles').waitFor();
      await expectPrefsInForce(page, 20);
    });

    // another browser: nothing in its storage, the preferences come with the sign-in
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await expectPrefsInForce(page, 20);
    });
  });
});
