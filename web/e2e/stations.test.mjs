import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, toast, tr, uiLogin } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);
describe('station page', () => {
  const env = setup();

  test('admin draws a polygon fence and a circle fence on the map, saves, reloads: both are there', async (t) => {
    const stamp = Date.now() % 100000;
    const polyName = `e2e-多边形站-${stamp}`;
    const circleName = `e2e-圆形站-${stamp}`;
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const onServer = async (n) =>
      (await api(env.base, 'POST', '/base-info-app/station/page', { token: admin.access_token, body: { pageNum: 1, pageSize: 10, stationName: n } })).body.data.list;

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      const first = page.waitForResponse((r) => r.url().endsWith('/base-info-app/station/page'));
      await page.goto(`${env.base}/#/basedata/station`);
      assert.equal((await (await first).json()).code, 1);
      const rows = page.locator('.ant-table-tbody tr.ant-table-row');
      await rows.first().waitFor();

      const openAdd = async () => {
        await page.getByTestId('station-add').click();
        const modal = page.locator('.ant-modal').filter({ hasText: zh('station.addTitle') });
        await modal.waitFor();
        return modal;
      };
      const save = async (modal) => {
        const added = page.waitForResponse((r) => r.url().endsWith('/base-info-app/station/add'));
        await modal.locator('.ant-modal-footer button.ant-btn-primary').click();
        const resp = await added;
        const body = await resp.json();
        assert.equal(body.code, 1, JSON.stringify(body));
        await toast(page, '添加成功').last().waitFor();
        await modal.waitFor({ state: 'hidden' });
        return JSON.parse(resp.request().postData());
      };

      // polygon: without vertices the form says what is missing and sends nothing
      let modal = await openAdd();
      await modal.locator('[id="stationForm_stationName"]').fill(polyName);
      let addCalls = 0;
      const count = (r) => {
        if (r.url().endsWith('/base-info-app/station/add')) addCalls += 1;
      };
      page.on('request', count);
      await modal.locator('.ant-modal-footer button.ant-btn-primary').click();
      await modal.getByTestId('fence-problem').filter({ hasText: zh('station.fenceNeedPoints') }).waitFor();
      assert.equal(addCalls, 0);

      const map = modal.getByTestId('fence-map');
      const box = await map.boundingBox();
      const at = (fx, fy) => ({ x: box.x + box.width * fx, y: box.y + box.height * fy });
      // a bowtie (the corners clicked across the diagonal) is named as crossing itself and not sent
      for (const [fx, fy] of [[0.35, 0.35], [0.65, 0.65], [0.65, 0.35], [0.35, 0.65]]) {
        const p = at(fx, fy);
        await page.mouse.click(p.x, p.y);
      }
      await page.waitForFunction(() => document.querySelector('[data-testid="fence-map"] .leaflet-container')?.dataset.vertices === '4');
      await modal.getByTestId('fence-problem').filter({ hasText: zh('station.fenceSelfIntersect') }).waitFor();
      await modal.locator('.ant-modal-footer button.ant-btn-primary').click();
      await toast(page, zh('station.fenceSelfIntersect')).last().waitFor();
      assert.equal(addCalls, 0);
      page.off('request', count);
      await modal.getByTestId('fence-clear').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="fence-map"] .leaflet-container')?.dataset.vertices === '0');
      for (const [fx, fy] of [[0.35, 0.35], [0.65, 0.35], [0.65, 0.65], [0.35, 0.65]]) {
        const p = at(fx, fy);
        await page.mouse.click(p.x, p.y);
      }
      await page.waitForFunction(() => document.querySelector('[data-testid="fence-map"] .leaflet-container')?.dataset.vertices === '4');
      // undo the last vertex, then put it back
      await modal.getByTestId('fence-undo').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="fence-map"] .leaflet-container')?.dataset.vertices === '3');
      const p4 = at(0.35, 0.65);
      await page.mouse.click(p4.x, p4.y);
      await page.waitForFunction(() => document.querySelector('[data-testid="fence-map"] .leaflet-container')?.dataset.vertices === '4');
      const polyBody = await save(modal);
      assert.equal(polyBody.fenceType, 1);
      assert.equal(polyBody.fencePoints.split(';').length, 4, polyBody.fencePoints);

      // circle: pick the type, click the centre, type the radius
      modal = await openAdd();
      await modal.locator('[id="stationForm_stationName"]').fill(circleName);
      await modal.locator('.ant-segmented-item').filter({ hasText: zh('station.fenceKind.2') }).click();
      const c = at(0.5, 0.5);
      await page.mouse.click(c.x, c.y);
      await page.waitForFunction(() => document.querySelector('[data-testid="fence-map"] .leaflet-container')?.dataset.vertices === '1');
      const radius = modal.locator('[data-testid="fence-radius"] input, input[data-testid="fence-radius"]').first();
      await radius.fill('250');
      await radius.blur();
      const circleBody = await save(modal);
      assert.equal(circleBody.fenceType, 2);
      assert.equal(circleBody.raduis, 250);

      // reload: both are listed, the server holds the fences, the view draws them
      await page.reload();
      await rows.first().waitFor();
      const poly = (await onServer(polyName))[0];
      assert.equal(poly.fencePoints, polyBody.fencePoints);
      const circle = (await onServer(circleName))[0];
      assert.equal(circle.fenceCenter, circleBody.fenceCenter);
      assert.equal(circle.raduis, 250);
      for (const name of [polyName, circleName]) {
        const row = rows.filter({ hasText: name });
        await row.waitFor();
        await row.locator('button').filter({ hasText: zh('station.view') }).click();
        const view = page.locator('.ant-modal').filter({ hasText: zh('station.viewTitle') });
        await view.waitFor();
        await view.locator('.leaflet-tw-fences-pane path').first().waitFor();
        await view.locator('.ant-modal-close').click();
        await view.waitFor({ state: 'hidden' });
      }
    });
  });
});
