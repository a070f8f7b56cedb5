// Equipment and device models (basedata/equipment, access/equipmentFun): the demo's terminals, locks and
// gauges are in the device list beside the cameras and probes; a camera is added on a car, edited and
// deleted; a model is added, its channels changed and deleted; a subsidiary cannot change models.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, toast, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key, vars = {}) => Object.entries(vars).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('zh-CN', key));

/** The input of the filter or form item labelled `label` in `scope`. */
const field = (scope, label) => scope.locator('.ant-form-item').filter({ hasText: label });

describe('equipment', () => {
  const env = setup();

  test('the device list shows the registers; a camera is added on a car, edited and deleted', { timeout: 60_000 }, async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const cars = (await api(env.base, 'POST', '/base-info-app/equipment/places', { token: admin.access_token, body: { text: '' } })).body.data.cars;
    const plate = cars[0].name;
    const serial = 'E2E-CAM-01';
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/basedata/equipment');
      const pane = await waitForPage(page, '/basedata/equipment');
      // kinds are named by the equipmentKind code list (its seeded label of terminal)
      await pane.locator('tr.ant-table-row').filter({ hasText: '车载终端' }).first().waitFor();

      await pane.getByRole('button', { name: zh('equipment.addTitle') }).click();
      const form = page.getByRole('dialog');
      await form.locator('#deviceForm_serial').fill(serial.toLowerCase());
      await field(form, zh('equipment.car')).locator('.ant-select').click();
      await page.keyboard.type(plate);
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: plate }).first().click();
      await form.locator('#deviceForm_installDate').fill('2026-01-05');
      await page.keyboard.press('Enter');
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, zh('common.addSuccess')).waitFor();

      await field(pane, zh('equipment.serial')).locator('input').first().fill('E2E-CAM');
      await pane.getByRole('button', { name: /查\s*询/ }).click();
      const row = pane.locator('tr.ant-table-row').filter({ hasText: serial });
      await row.filter({ hasText: plate }).filter({ hasText: zh('equipment.stateName.1') }).filter({ hasText: '2026-01-05' }).waitFor();

      await row.getByRole('button', { name: zh('common.edit') }).click();
      const edit = page.getByRole('dialog');
      await edit.locator('#deviceForm_notes').fill('E2E 罐顶摄像头');
      await field(edit, zh('equipment.state')).locator('.ant-select').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: zh('equipment.stateName.2') }).click();
      await edit.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, zh('common.modifySuccess')).waitFor();
      await row.filter({ hasText: zh('equipment.stateName.2') }).filter({ hasText: 'E2E 罐顶摄像头' }).waitFor();

      await row.getByRole('button', { name: zh('common.delete') }).click();
      await page.getByRole('dialog').filter({ hasText: zh('common.confirmDelete') }).getByRole('button', { name: /确\s*定/ }).click();
      await toast(page, zh('common.deleteSuccess')).waitFor();
      await row.waitFor({ state: 'detached' });
    });
  });

  test('a device model is added, changed and deleted; a subsidiary may only read models', { timeout: 60_000 }, async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const name = 'E2E-CAM-X9';
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/access/equipmentFun');
      const pane = await waitForPage(page, '/access/equipmentFun');
      await pane.locator('tr.ant-table-row').filter({ hasText: 'TW-808T' }).filter({ hasText: zh('equipment.fun.videoN', { n: 4 }) }).waitFor();

      await pane.getByRole('button', { name: zh('equipment.fun.addTitle') }).click();
      const form = page.getByRole('dialog');
      await form.locator('#modelForm_name').fill(name);
      await form.locator('#modelForm_videoChannels').fill('2');
      await form.locator('#modelForm_channelNames').fill('罐顶，卸油口');
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, zh('common.addSuccess')).waitFor();
      const row = pane.locator('tr.ant-table-row').filter({ hasText: name });
      await row.filter({ hasText: zh('equipment.fun.videoN', { n: 2 }) }).waitFor();

      await row.getByRole('button', { name: zh('common.edit') }).click();
      const edit = page.getByRole('dialog');
      await edit.locator('#modelForm_videoChannels').fill('3');
      await edit.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, zh('common.modifySuccess')).waitFor();
      await row.filter({ hasText: zh('equipment.fun.videoN', { n: 3 }) }).waitFor();

      await row.getByRole('button', { name: zh('common.delete') }).click();
      await page.getByRole('dialog').filter({ hasText: zh('common.confirmDelete') }).getByRole('button', { name: /确\s*定/ }).click();
      await toast(page, zh('common.deleteSuccess')).waitFor();
      await row.waitFor({ state: 'detached' });
    });

    // 华东's administrator holding every code reads the models but is refused changing them
    const groups = (await api(env.base, 'POST', '/authority-app/groupInfo/findTrees', { token: admin.access_token, body: {} })).body.data;
    const east = groups.flatMap(function walk(g) { return [g, ...(g.children ?? []).flatMap(walk)]; }).find((g) => g.name === '华东分公司');
    const codes = ['06', '06-09', '06-09-01', '06-09-02', '06-09-03'];
    const role = (await api(env.base, 'POST', '/authority-app/roleInfo/insert', { token: admin.access_token, body: { name: 'E2E 华东设备', groupId: east.id, resourceCodes: codes } })).body.data;
    await api(env.base, 'POST', '/authority-app/userInfo/insert', { token: admin.access_token, body: { name: 'e2eeast', password: 'secret1', groupId: east.id, roleIds: [role.id] } });
    const sub = await apiLogin(env.base, 'e2eeast', 'secret1');
    const list = (await api(env.base, 'POST', '/authority-app/equipmentFun/page', { token: sub.access_token, body: {} })).body;
    assert.equal(list.code, 1);
    assert.equal(list.data.editable, false);
    const refused = await api(env.base, 'POST', '/authority-app/equipmentFun/save', { token: sub.access_token, body: { name: 'E2E-NO', kind: 'terminal' } });
    assert.equal(refused.status, 403);
  });
});
