import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tr, uiLogin, waitForPage } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);
describe('waybill base data pages', () => {
  const env = setup();

  test('admin adds a product and a customer owning a free oil station; both are listed and stored', async (t) => {
    const stamp = Date.now() % 100000;
    const code = `E2E${stamp}`;
    const customerName = `e2e客户${stamp}`;
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    // a free oil station: the demo customers own theirs, so free one through the API first
    const stations = (await api(env.base, 'GET', '/base-info-app/customer/stations', { token: admin.access_token })).body.data;
    const taken = stations.find((s) => s.customerId != null);
    assert.ok(taken, 'the demo customers own oil stations');
    const owner = (await api(env.base, 'GET', '/base-info-app/customer/list', { token: admin.access_token })).body.data.find((c) => c.id === taken.customerId);
    const freed = await api(env.base, 'POST', '/base-info-app/customer/update', {
      token: admin.access_token,
      body: { id: owner.id, name: owner.name, code: owner.code, groupId: owner.groupId, stationIds: owner.stationIds.filter((id) => id !== taken.id) },
    });
    assert.equal(freed.body.code, 1, JSON.stringify(freed.body));

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');

      // products
      await page.goto(`${env.base}/#/basedata/transProduct`);
      const products = await waitForPage(page, '/basedata/transProduct');
      await products.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
      await products.locator('button').filter({ hasText: zh('transProduct.addTitle') }).click();
      const pm = page.locator('.ant-modal').filter({ hasText: zh('transProduct.addTitle') });
      await pm.waitFor();
      await pm.locator('[id="productForm_name"]').fill('98# 汽油');
      await pm.locator('[id="productForm_code"]').fill(code);
      await pm.locator('.ant-select').filter({ has: page.locator('[id="productForm_product"]') }).click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: zh('transProduct.productName.2') }).click();
      const added = page.waitForResponse((r) => r.url().endsWith('/base-info-app/transProduct/add'));
      await pm.locator('.ant-modal-footer button.ant-btn-primary').click();
      const addBody = await (await added).json();
      assert.equal(addBody.code, 1, JSON.stringify(addBody));
      assert.equal(addBody.data.family, 1);
      assert.equal(addBody.data.density20, 740);
      await pm.waitFor({ state: 'hidden' });
      await products.locator('form.tw-filter-form [id="name"]').fill(code);
      await products.locator('form.tw-filter-form button[type="submit"]').click();
      await products.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: code }).waitFor();

      // customers
      await page.goto(`${env.base}/#/access/customer`);
      const customers = await waitForPage(page, '/access/customer');
      await customers.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
      await customers.locator('button').filter({ hasText: zh('customer.addTitle') }).click();
      const cm = page.locator('.ant-modal').filter({ hasText: zh('customer.addTitle') });
      await cm.waitFor();
      await cm.locator('[id="customerForm_name"]').fill(customerName);
      await cm.locator('.ant-select').filter({ has: page.locator('[id="customerForm_stationIds"]') }).click();
      await cm.locator('[id="customerForm_stationIds"]').fill(taken.name);
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: taken.name }).first().click();
      // close the multi-select's dropdown (it stays open and covers the dialog's footer)
      await cm.locator('.ant-modal-title').click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor({ state: 'hidden' });
      const cAdded = page.waitForResponse((r) => r.url().endsWith('/base-info-app/customer/add'));
      await cm.locator('.ant-modal-footer button.ant-btn-primary').click();
      const cBody = await (await cAdded).json();
      assert.equal(cBody.code, 1, JSON.stringify(cBody));
      assert.deepEqual(cBody.data.stationIds, [taken.id]);
      assert.match(cBody.data.code, /KH\d{4}$/);
      await cm.waitFor({ state: 'hidden' });
      await customers.locator('form.tw-filter-form [id="name"]').fill(customerName);
      await customers.locator('form.tw-filter-form button[type="submit"]').click();
      const row = customers.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: customerName });
      await row.filter({ hasText: taken.name }).waitFor();
    });

    const listed = (await api(env.base, 'POST', '/base-info-app/customer/page', { token: admin.access_token, body: { pageNum: 1, pageSize: 10, name: customerName } })).body.data;
    assert.equal(listed.total, 1);
    assert.deepEqual(listed.list[0].stationIds, [taken.id]);
  });
});
