// Text templates and after-sales (access/editTemp, faultRecord): a group's own dispatch text is checked
// while typing (an unknown placeholder), previewed with sample values, added, edited and deleted; a
// fault is added, moved in progress, closed with its resolution and deleted. (Raising a fault from an
// offline record is covered by internal/aftersales TestFaults: the demo has no offline period to click.)
import { describe, test } from 'node:test';
import { api, apiLogin, setup, toast, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key, vars = {}) => Object.entries(vars).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('zh-CN', key));

/** Picks option `text` of the antd select inside `item` (a form item or filter). */
async function pickOption(page, item, text) {
  await item.locator('.ant-select').first().click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

describe('templates and after-sales', () => {
  const env = setup();

  test('editTemp: a group template is checked, previewed, added, edited and deleted', { timeout: 60_000 }, async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/access/editTemp');
      const pane = await waitForPage(page, '/access/editTemp');
      await pane.locator('tr.ant-table-row').filter({ hasText: zh('notices.builtin') }).first().waitFor();

      await pane.getByRole('button', { name: zh('notices.add') }).click();
      const form = page.getByRole('dialog');
      await form.locator('.ant-form-item').filter({ hasText: zh('notices.group') }).locator('.ant-select').first().click();
      await page.locator('.ant-select-tree-node-content-wrapper').filter({ hasText: '华东分公司' }).first().click();
      const body = form.locator('#templateForm_body');
      await body.fill('{driver} 运单 {waybillNo}：{depot}→{stops}');
      await form.getByText('未知的占位符 {driver}').first().waitFor();
      await body.fill('【华东调度】{plate} 请装车。运单 {waybillNo}：{depot}→{stops}\n注意安全');
      const preview = form.getByTestId('template-preview');
      await preview.getByText('【华东调度】沪A12345 请装车。运单 G0001YD202611260001：上海浦东油库→嘉兴站→桐乡站').waitFor();
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, zh('common.addSuccess')).waitFor();
      const row = pane.locator('tr.ant-table-row').filter({ hasText: '【华东调度】' });
      await row.filter({ hasText: zh('notices.own') }).waitFor();

      await row.getByRole('button', { name: /编\s*辑/ }).click();
      const edit = page.getByRole('dialog');
      await edit.locator('#templateForm_body').fill('【华东调度】{plate} 请于 {time} 前装车。运单 {waybillNo}：{depot}→{stops}');
      await edit.getByTestId('template-preview').getByText('请于 2026-11-26 09:30 前装车').waitFor();
      await edit.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, zh('common.modifySuccess')).waitFor();
      const edited = pane.locator('tr.ant-table-row').filter({ hasText: '请于 {time} 前装车' });
      await edited.waitFor();

      await edited.getByRole('button', { name: /删\s*除/ }).click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
      await toast(page, zh('common.deleteSuccess')).waitFor();
      await edited.waitFor({ state: 'detached' });
    });
  });

  test('faultRecord: a fault is added, moved in progress, closed and deleted', { timeout: 60_000 }, async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const cars = (await api(env.base, 'POST', '/monitor-app/realTimeMoitoring/findCars', { token: admin.access_token, body: { carNumber: '', pageNum: 1, pageSize: 3 } })).body.data.list;
    const plate = cars[2].plate;
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/faultRecord');
      const pane = await waitForPage(page, '/faultRecord');
      await pane.locator('tr.ant-table-row').first().waitFor();

      await pane.getByRole('button', { name: zh('faults.add') }).click();
      const form = page.getByRole('dialog');
      await form.locator('.ant-form-item').filter({ hasText: zh('faults.plate') }).locator('.ant-select').first().click();
      await page.keyboard.type(plate);
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: plate }).first().click();
      await pickOption(page, form.locator('.ant-form-item').filter({ hasText: zh('faults.type') }), zh('faults.typeName.camera'));
      await form.locator('#faultForm_symptom').fill('E2E 驾驶室摄像头黑屏');
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, zh('common.addSuccess')).waitFor();
      const row = pane.locator('tr.ant-table-row').filter({ hasText: 'E2E 驾驶室摄像头黑屏' });
      await row.filter({ hasText: zh('faults.stateName.open') }).waitFor();

      await row.getByRole('button', { name: /编\s*辑/ }).click();
      const edit = page.getByRole('dialog');
      await pickOption(page, edit.locator('.ant-form-item').filter({ hasText: zh('faults.state') }).last(), zh('faults.stateName.inProgress'));
      await edit.getByRole('button', { name: zh('faults.addPart') }).click();
      await edit.locator('#faultForm_parts_0_name').fill('红外摄像头');
      await edit.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, zh('common.modifySuccess')).waitFor();
      await row.filter({ hasText: zh('faults.stateName.inProgress') }).waitFor();

      await row.getByRole('button', { name: zh('faults.close') }).click();
      const close = page.getByRole('dialog');
      await close.locator('textarea').fill('更换红外摄像头后画面正常');
      // The dialog's action says what it does (关闭故障), apart from the dialog's own close (×) and 取消.
      await close.getByRole('button', { name: zh('faults.closeFault'), exact: true }).click();
      await toast(page, zh('common.operationSuccess')).waitFor();
      await row.filter({ hasText: zh('faults.stateName.closed') }).waitFor();

      await row.getByRole('button', { name: /删\s*除/ }).click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
      await toast(page, zh('common.deleteSuccess')).waitFor();
      await row.waitFor({ state: 'detached' });
    });
  });
});
