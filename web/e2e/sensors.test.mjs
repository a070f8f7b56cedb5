import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tile, toast, tr, uiLogin, waitForPage, toastDuring } from './lib.mjs';

// The spec's texts verbatim; the page's own labels from the console's zh-CN bundle.
const zh = (key) => tr('zh-CN', key);
/** antd puts a space between two CJK characters of a button (删 除), so match either. */
const spaced = (text) => new RegExp([...text].join('\\s*'));
describe('sensor registry page', () => {
  const env = setup();

  test('admin adds a sensor (validation first), edits its name and deletes it; the server agrees', async (t) => {
    const stamp = Date.now() % 100000;
    const name = `e2e-probe-${stamp}`;
    const renamed = `${name}-b`;
    // 2 bytes of hex, typed in lower case (the server stores it upper case)
    const identification = `a${(stamp % 0x1000).toString(16).padStart(3, '0')}`;
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const findOnServer = async (n) =>
      (await api(env.base, 'POST', '/base-info-app/sensor/page', { token: admin.access_token, body: { pageNum: 1, pageSize: 10, name: n } })).body.data;

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'basedata').click();
      const firstPage = page.waitForResponse((r) => r.url().endsWith('/base-info-app/sensor/page'));
      await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: zh('menu.sensor') }).click();
      await waitForPage(page, '/basedata/sensor');
      assert.equal((await (await firstPage).json()).code, 1);
      const rows = page.locator('.ant-table-tbody tr.ant-table-row');

      // add: an empty name is refused on save, with the field message and the form-level notice
      await page.locator('.tw-page button').filter({ hasText: zh('sensor.addTitle') }).click();
      const addModal = page.locator('.ant-modal').filter({ hasText: zh('sensor.addTitle') });
      await addModal.waitFor();
      const field = (modal, f) => modal.locator(`[id="sensorForm_${f}"]`);
      let addCalls = 0;
      page.on('request', (r) => { if (r.url().endsWith('/base-info-app/sensor/add')) addCalls += 1; });
      await addModal.locator('.ant-modal-footer button.ant-btn-primary').click();
      await addModal.locator('.ant-form-item-explain-error').filter({ hasText: '用户名不能为空' }).waitFor();
      await toast(page, '请填写完整的部门信息!').waitFor();
      assert.equal(addCalls, 0, 'nothing is sent while the form is invalid');

      await field(addModal, 'name').fill(name);
      await field(addModal, 'length').fill('5'); // 2 bytes of identification + 3 bytes of lock payload
      await field(addModal, 'identification').fill(identification);
      // the select's visible box, not its (covered) search input
      await addModal.locator('.ant-select').filter({ has: page.locator('[id="sensorForm_decoder"]') }).click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: zh('sensor.lock') }).click();
      const added = page.waitForResponse((r) => r.url().endsWith('/base-info-app/sensor/add'));
      await addModal.locator('.ant-modal-footer button.ant-btn-primary').click();
      const addResp = await added;
      assert.deepEqual(JSON.parse(addResp.request().postData()), { name, length: 5, identification: identification.toUpperCase(), decoder: 'lock', remark: '' });
      const addBody = await addResp.json();
      assert.equal(addBody.code, 1, JSON.stringify(addBody));
      await toast(page, '添加成功').waitFor();
      await addModal.waitFor({ state: 'hidden' });

      // the list shows it (newest first) with the decoder translated
      const row = rows.filter({ hasText: name });
      await row.waitFor();
      assert.ok(await row.getByText(identification.toUpperCase(), { exact: true }).count(), 'identification is shown upper case');
      assert.ok(await row.getByText(zh('sensor.lock'), { exact: true }).count(), 'decoder is shown translated');

      // edit the name
      await row.locator('button').filter({ hasText: spaced(zh('menu.sensor-edit')) }).click();
      const editModal = page.locator('.ant-modal').filter({ hasText: zh('sensor.editTitle') });
      await editModal.waitFor();
      assert.equal(await field(editModal, 'name').inputValue(), name, 'the form is filled from the record');
      await field(editModal, 'name').fill(renamed);
      const updated = page.waitForResponse((r) => r.url().endsWith('/base-info-app/sensor/update'));
      await toastDuring(page, '修改成功', async () => {
        await editModal.locator('.ant-modal-footer button.ant-btn-primary').click();
        const updBody = await (await updated).json();
        assert.equal(updBody.code, 1, JSON.stringify(updBody));
      });
      await editModal.waitFor({ state: 'hidden' });
      const renamedRow = rows.filter({ hasText: renamed });
      await renamedRow.waitFor();

      const onServer = await findOnServer(renamed);
      assert.equal(onServer.total, 1, JSON.stringify(onServer));
      assert.equal(onServer.list[0].identification, identification.toUpperCase());
      assert.equal(onServer.list[0].decoder, 'lock');
      assert.equal(onServer.list[0].length, 5);

      // delete with confirmation
      await renamedRow.locator('button').filter({ hasText: spaced('删除') }).click();
      const confirm = page.locator('.ant-modal-confirm').filter({ hasText: '确定要删除该数据吗' });
      await confirm.waitFor();
      const deleted = page.waitForResponse((r) => r.url().endsWith('/base-info-app/sensor/delete'));
      await confirm.getByRole('button', { name: spaced('确定') }).click();
      const delResp = await deleted;
      assert.deepEqual(JSON.parse(delResp.request().postData()), { id: onServer.list[0].id });
      assert.equal((await delResp.json()).code, 1);
      await toast(page, '删除成功').waitFor();
      await rows.filter({ hasText: renamed }).waitFor({ state: 'detached' });
    });

    assert.equal((await findOnServer(name)).total, 0, 'the sensor is gone on the server');
  });
});
