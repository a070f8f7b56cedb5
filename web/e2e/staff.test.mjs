// Staff (basedata/employees, leaveRecord, jobDuty, operateFlow): the home page warns about expiring and
// expired qualifications and its count opens the employees page filtered; an employee is added, edited and
// deleted in the console; the pending demo leave is approved with a comment; the duties and procedures
// pages show the demo's rows (holders, steps, stations).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setup, toast, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key, vars = {}) => Object.entries(vars).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), tr('zh-CN', key));
const spaced = (text) => new RegExp(text.split('').join('\\s*'));

describe('staff', () => {
  const env = setup();

  test('home warning, employee add–edit–delete, leave approval, duties and procedures', { timeout: 60_000 }, async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');

      // the home warning: one expired qualification opens the employees page filtered on it
      const warning = page.getByTestId('home-staff-warning');
      await warning.getByTestId('home-staff-expired').click();
      let pane = await waitForPage(page, '/basedata/employees');
      await pane.locator('tr.ant-table-row').filter({ hasText: '钱海峰' }).filter({ hasText: zh('staff.expiryName.expired') }).waitFor();
      assert.equal(await pane.locator('tr.ant-table-row').count(), 1);

      // add
      await pane.getByRole('button', { name: zh('staff.addTitle') }).click();
      let form = page.getByRole('dialog');
      await form.locator('#employeeForm_name').fill('测试押运员');
      await form.locator('#employeeForm_idCard').fill('11010519491231002x');
      await form.locator('#employeeForm_phone').fill('13712345678');
      await form.locator('#employeeForm_licenceClasses').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: /^A2 / }).click();
      await form.getByRole('button', { name: spaced('保存') }).click();
      await toast(page, zh('common.addSuccess')).waitFor();
      // the "on duty" count drops the expiry filter the home page set
      await pane.getByTestId('staff-summary').locator('.ant-tag').filter({ hasText: zh('staff.sumTotal', { n: '' }).trim().slice(0, 2) }).click();
      await pane.locator('input#keyword').fill('测试押运员');
      await pane.getByRole('button', { name: spaced('查询') }).click();
      const row = pane.locator('tr.ant-table-row').filter({ hasText: '测试押运员' });
      await row.filter({ hasText: '11010519491231002X' }).waitFor();

      // edit
      await row.getByRole('button', { name: spaced('编辑') }).click();
      form = page.getByRole('dialog');
      await form.locator('#employeeForm_phone').fill('13712345679');
      await form.getByRole('button', { name: spaced('保存') }).click();
      await toast(page, zh('common.modifySuccess')).waitFor();
      await row.filter({ hasText: '13712345679' }).waitFor();

      // delete after confirming
      await row.getByRole('button', { name: spaced('删除') }).click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: spaced('确定') }).click();
      await toast(page, zh('common.deleteSuccess')).waitFor();
      await pane.locator('tr.ant-table-row').filter({ hasText: '测试押运员' }).waitFor({ state: 'detached' });

      // leave: the demo's pending request is approved with a comment; who decided is shown
      await page.goto('/#/basedata/leaveRecord');
      pane = await waitForPage(page, '/basedata/leaveRecord');
      const pending = pane.locator('tr.ant-table-row').filter({ hasText: '王海涛' });
      await pending.getByTestId('leave-decide').click();
      const dlg = page.getByRole('dialog');
      await dlg.getByTestId('leave-comment').fill('同意，注意交接');
      await dlg.getByTestId('leave-approve').click();
      await toast(page, zh('staff.approved')).waitFor();
      await pending.filter({ hasText: zh('staff.leaveStateName.2') }).filter({ hasText: 'admin' }).waitFor();

      // duties with their holders; procedures with their stations and products
      await page.goto('/#/basedata/jobDuty');
      pane = await waitForPage(page, '/basedata/jobDuty');
      await pane.locator('tr.ant-table-row').filter({ hasText: '押运安全员' }).filter({ hasText: '孙丽娜' }).waitFor();
      await page.goto('/#/basedata/operateFlow');
      pane = await waitForPage(page, '/basedata/operateFlow');
      const flow = pane.locator('tr.ant-table-row').filter({ hasText: '油库装车作业规程' });
      await flow.filter({ hasText: zh('staff.stepsN', { n: 5 }) }).waitFor();
      assert.ok((await flow.locator('.ant-tag').count()) >= 3, 'the procedure shows its station and products');
    });
  });
});
