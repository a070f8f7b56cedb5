import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, CJK, openMenuItem, setup, tile, tr, uiLogin, waitForPage } from './lib.mjs';

/** The language switch's own labels stay in their own language; everything else must be translated. */
const SWITCH_LABELS = ['简体中文', '繁體中文'];

async function switchLanguage(page, label, lang) {
  await page.locator('.tw-header [data-testid="lang-switch"]').click();
  await openMenuItem(page, label).click();
  await page.waitForFunction((l) => document.documentElement.lang === l && localStorage.getItem('lang') === l, lang);
}

/** body.innerText minus the switch labels and minus server data (names typed by users), listed in `data`. */
async function leftoverCJK(page, data) {
  let text = await page.evaluate(() => document.body.innerText);
  for (const s of [...SWITCH_LABELS, ...data].filter(Boolean).sort((a, b) => b.length - a.length)) text = text.split(s).join(' ');
  return text.split('\n').filter((line) => CJK.test(line));
}

describe('language', () => {
  const env = setup();

  test('English leaves no Chinese on home and the users page; 繁體中文 shows traditional titles', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      const session = await page.evaluate(() => {
        // The session is whatever the store persisted; collect its strings (names are user data).
        const out = [];
        for (let i = 0; i < localStorage.length; i++) out.push(localStorage.getItem(localStorage.key(i)));
        return out.join('\n');
      });
      const sessionData = [...session.matchAll(/"(?:userNickName|userName|groupName|name|nickName)":"([^"]*)"/g)].map((m) => m[1]);

      await switchLanguage(page, 'English', 'en-US');
      await tile(page, 'access').filter({ hasText: tr('en-US', 'menu.access') }).waitFor();
      await page.locator('.tw-header .tw-brand').filter({ hasText: tr('en-US', 'theme.tankcar.title') }).waitFor();
      await page.waitForLoadState('networkidle');
      // the cockpit lists vehicles: their plates, organisations and drivers are data (the reason column is not)
      const carData = await page.evaluate(() => {
        const cells = (list, cols) =>
          [...document.querySelectorAll(`[data-testid="${list}"] tr.ant-table-row`)].flatMap((tr) => cols.map((i) => tr.children[i]?.textContent ?? ''));
        return [...cells('watch-3', [0, 1]), ...cells('watch-7', [0, 1, 2])];
      });
      assert.deepEqual(await leftoverCJK(page, [...sessionData, ...carData]), [], 'home page has untranslated text');

      const usersResp = page.waitForResponse((r) => r.url().endsWith('/authority-app/userInfo/page') && r.status() === 200);
      await tile(page, 'access').click();
      await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: tr('en-US', 'menu.userInfo') }).click();
      await waitForPage(page, '/access/userInfo');
      const users = (await (await usersResp).json()).data?.list ?? [];
      assert.ok(users.length > 0, 'the demo has users');
      await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
      await page.waitForLoadState('networkidle');
      const userData = users.flatMap((u) => [u.name, u.nickName, u.groupName, u.email, ...(u.roleNames ?? [])]);
      assert.deepEqual(await leftoverCJK(page, [...sessionData, ...userData]), [], 'users page has untranslated text');

      await switchLanguage(page, '繁體中文', 'zh-TW');
      await page.locator('.tw-header .tw-brand').filter({ hasText: tr('zh-TW', 'theme.tankcar.title') }).waitFor();
      await tile(page, 'access').filter({ hasText: tr('zh-TW', 'menu.access') }).waitFor();
      await page.locator('.tw-tabs [role="tab"]').filter({ hasText: tr('zh-TW', 'menu.userInfo') }).waitFor();
    });
  });

  test('简体中文: the operation log names modules, actions and details in Chinese, and the map zoom buttons too', async (t) => {
    const session = await apiLogin(env.base, 'admin', 'admin123');
    const call = async (url, body) => {
      const r = await api(env.base, 'POST', url, { token: session.access_token, body });
      assert.equal(r.body.code, 1, `${url}: ${JSON.stringify(r.body)}`);
      return r.body.data;
    };
    // operations whose log rows carry details (the user's status, the sensor's identification and decoder)
    const user = await call('/authority-app/userInfo/insert', { name: 'e2eoplog', password: 'secret1', groupId: session.groupId });
    await call('/authority-app/userInfo/updateStatus', { id: user.id ?? user, status: 0 });
    await call('/base-info-app/sensor/add', { name: '探杆E2E', length: 0, identification: 'E2E1', decoder: 'level' });
    // 100 rows a page (the admin's preference): after midnight, Beijing time, the demo planner's new
    // waybills log enough rows to push these two off a page of 10
    await call('/base-info-app/userSetting/edit', { prefs: { theme: '', mapLayer: '', pageSize: 100 } });

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/access/operationLog');
      const rows = page.locator('.ant-table-tbody tr.ant-table-row');
      await rows.filter({ hasText: 'e2eoplog' }).filter({ hasText: tr('zh-CN', 'operationLog.actions.status') }).first().waitFor();
      await rows.filter({ hasText: '外设标识：E2E1；解码器：液位探杆' }).first().waitFor();
      const heads = await page.locator('.ant-table-thead th').allInnerTexts();
      const cols = ['module', 'action', 'detail'].map((k) => heads.findIndex((h) => h.trim() === tr('zh-CN', `operationLog.${k}`)));
      assert.ok(cols.every((i) => i >= 0), `columns ${heads}`);
      const cells = await rows.evaluateAll((trs, idx) => trs.flatMap((tr) => idx.map((i) => tr.children[i]?.textContent ?? '')), cols);
      assert.ok(cells.some((c) => c === '停用'), `the status change reads 停用: ${cells}`);
      // module, action and detail are the console's words; names, identifications and IDs are data without words
      const english = cells.filter((c) => /[A-Za-z]{2,}/.test(c.replace(/\b(ID|SIM|km\/h)\b/g, '')));
      assert.deepEqual(english, [], 'operation log has English');

      await page.goto('/#/manager/monitoring');
      const zoomIn = page.locator('.leaflet-control-zoom-in').first();
      await zoomIn.waitFor();
      assert.equal(await zoomIn.getAttribute('title'), tr('zh-CN', 'map.zoomIn'));
      assert.equal(await page.locator('.leaflet-control-zoom-out').first().getAttribute('title'), tr('zh-CN', 'map.zoomOut'));
    });
  });
});
