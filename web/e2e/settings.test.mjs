// Settings (access/baseType, access/system): a code list item is added, edited and deleted; a platform
// setting is changed and in force at once; an MBTiles file made here is uploaded, selected as the map
// source, and the monitoring map loads its tiles from /tiles/...; a signed-in session is signed out and
// its token gets 401. The demo keeps its own map source until the administrator changes it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, toast, tr, uiLogin, waitForPage, WEB_DIR } from './lib.mjs';

const zh = (key, vars = {}) => Object.entries(vars).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('zh-CN', key));

/** A small MBTiles file (zoom 0–3) written with the Go SQLite driver the server uses. */
function sampleMBTiles() {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'tw-tiles-')), 'e2e-sample.mbtiles');
  execFileSync('go', ['run', './internal/settings/tiles/sample', file], { cwd: path.resolve(WEB_DIR, '..'), stdio: 'inherit' });
  return file;
}

describe('settings', () => {
  const env = setup();

  test('a fault type is added, edited and deleted', { timeout: 60_000 }, async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/access/baseType');
      const pane = await waitForPage(page, '/access/baseType');
      await pane.getByTestId('codeType-faultType').click();
      await pane.locator('tr.ant-table-row').filter({ hasText: '电子锁故障' }).waitFor();
      await pane.getByRole('button', { name: zh('settings.codes.add') }).click();
      const form = page.getByRole('dialog');
      await form.locator('#codeForm_code').fill('brake');
      await form.locator('#codeForm_labelZh').fill('制动故障');
      await form.locator('#codeForm_labelEn').fill('Brake fault');
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, zh('common.addSuccess')).waitFor();
      const row = pane.locator('tr.ant-table-row').filter({ hasText: 'brake' });
      await row.filter({ hasText: '制动故障' }).waitFor();
      await form.waitFor({ state: 'hidden' });
      await row.getByRole('button', { name: zh('common.edit') }).click();
      const edit = page.locator('.ant-modal:visible');
      await edit.locator('#codeForm_labelZh').fill('刹车故障');
      await edit.locator('#codeForm_code[disabled]').waitFor();
      await edit.getByRole('button', { name: /保\s*存/ }).click();
      await row.filter({ hasText: '刹车故障' }).waitFor();
      // other pages read the list at once
      const admin = await apiLogin(env.base, 'admin', 'admin123');
      const items = (await api(env.base, 'GET', '/base-info-app/baseType/items?type=faultType', { token: admin.access_token })).body.data;
      assert.ok(items.some((i) => i.code === 'brake' && i.labelZh === '刹车故障'));
      await row.getByRole('button', { name: zh('common.delete') }).click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定|删\s*除/ }).click();
      await row.waitFor({ state: 'detached' });

      // a kind the registers rest on (D95) is shown as a system item: it cannot be deleted or disabled here
      await pane.getByTestId('codeType-equipmentKind').click();
      const terminal = pane.locator('tr.ant-table-row').filter({ hasText: 'terminal' });
      await terminal.locator('.ant-tag').filter({ hasText: zh('settings.codes.pinned') }).waitFor();
      assert.ok(await terminal.getByRole('button', { name: zh('common.delete') }).isDisabled());
      await terminal.getByRole('button', { name: zh('common.edit') }).click();
      const kind = page.locator('.ant-modal:visible');
      await kind.getByText(zh('settings.codes.pinnedHint')).waitFor();
      assert.ok(await kind.getByRole('switch').isDisabled());
      await kind.getByRole('button', { name: /取\s*消/ }).click();
      await kind.waitFor({ state: 'hidden' });
    });
  });

  test('a setting is in force at once; the offline map serves its tiles; a session is signed out', { timeout: 90_000 }, async (t) => {
    const file = sampleMBTiles();
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const info = (await api(env.base, 'GET', '/authority-app/platformInfo')).body.data;
    assert.equal(info.mapTiles, 'none', 'the demo keeps its map source (--map-tiles)');
    const dispatcher = await apiLogin(env.base, 'dispatcher', 'dispatch123');
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/access/system');
      const pane = await waitForPage(page, '/access/system');
      const form = pane.getByTestId('system-form');
      await form.locator('#offlineMinutes').fill('25');
      // faults raised by the system (D82): the demo has them on; a silence of 12 hours, sensor faults off
      assert.equal(await form.locator('#faultSilentHours').inputValue(), '8');
      await form.locator('#faultSilentHours').fill('12');
      await form.getByTestId('faultSensor').click();
      // the MBTiles file: upload, choose, select the offline provider
      const chooser = page.waitForEvent('filechooser');
      await form.getByTestId('uploadTiles').click();
      await (await chooser).setFiles(file);
      await toast(page, '已上传').waitFor();
      await form.locator('.ant-form-item').filter({ hasText: zh('settings.system.offlineTiles') }).locator('.ant-select-selection-item').filter({ hasText: 'e2e-sample.mbtiles' }).waitFor();
      await form.locator('.ant-form-item').filter({ hasText: zh('settings.system.mapProvider') }).locator('.ant-select').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: zh('settings.system.provider.offline') }).click();
      await pane.getByTestId('system-save').click();
      await toast(page, zh('settings.system.saved')).waitFor();
      const pub = (await api(env.base, 'GET', '/base-info-app/system/public', { token: admin.access_token })).body.data;
      assert.equal(pub.offlineMinutes, 25);
      assert.equal(pub.mapProvider, 'offline');
      const detail = (await api(env.base, 'GET', '/base-info-app/system/detail', { token: admin.access_token })).body.data;
      assert.deepEqual([detail.faultSilentHours, detail.faultSensor], [12, false]);

      // the monitoring map loads a tile from /tiles/...
      const tile = page.waitForResponse((r) => /\/tiles\/\d+\/\d+\/\d+$/.test(r.url()) && r.status() === 200);
      await page.goto('/#/manager/monitoring');
      const res = await tile;
      assert.equal(res.headers()['content-type'], 'image/png');

      // the sessions tab: the dispatcher is signed out and their token is refused at once
      await page.goto('/#/access/system');
      const pane2 = await waitForPage(page, '/access/system');
      await pane2.getByTestId('tab-sessions').click();
      await pane2.getByTestId('signout-dispatcher').first().click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定|OK/ }).click();
      await toast(page, zh('settings.sessions.done')).waitFor();
      const r = await api(env.base, 'GET', '/base-info-app/system/public', { token: dispatcher.access_token });
      assert.equal(r.status, 401);
    });
  });
});
