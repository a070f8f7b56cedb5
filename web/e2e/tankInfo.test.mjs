import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tile, toast, tr, uiLogin, waitForPage, WEB_DIR, toastDuring } from './lib.mjs';

const zh = (key) => tr('zh-CN', key);

/** The page's zh-CN title as menu.json names it (the console's menu text must be the same). */
function menuTitle(name) {
  const menu = JSON.parse(readFileSync(path.join(WEB_DIR, '..', 'internal', 'org', 'menu.json'), 'utf8'));
  const walk = (nodes) => {
    for (const n of nodes ?? []) {
      if (n.name === name) return n.title;
      const found = walk(n.children);
      if (found) return found;
    }
    return undefined;
  };
  return walk(Array.isArray(menu) ? menu : menu.children ?? menu.menus);
}

describe('tank information page', () => {
  const env = setup();

  test('admin opens a demo car, breaks and fixes its strapping table, saves; adds a ground tank and deletes it', async (t) => {
    const admin = await apiLogin(env.base, 'admin', 'admin123');
    const title = menuTitle('tankInfo');
    assert.equal(title, '油罐信息');
    assert.equal(zh('menu.tankInfo'), title);

    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'basedata').click();
      const firstPage = page.waitForResponse((r) => r.url().endsWith('/base-info-app/tankInfo/carPage'));
      await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: title }).click();
      const pane = await waitForPage(page, '/basedata/tankInfo');
      const listed = await (await firstPage).json();
      assert.equal(listed.code, 1);
      const car = listed.data.list[0];
      assert.equal(car.tables, 3, 'the demo cars have their three compartments with tables');

      // a demo car: the curve and the table of compartment 1
      await pane.getByTestId(`car-open-${car.plate}`).click();
      const drawer = page.locator('.ant-drawer-content').filter({ hasText: car.plate });
      await drawer.waitFor();
      const comp = drawer.getByTestId('comp-pane-1');
      // the car's compartments come from the server: give a busy machine time
      await comp.getByTestId('strap-chart').waitFor({ timeout: 30_000 });
      assert.equal(await comp.getByTestId('strap-chart').getAttribute('data-points'), '91');
      await comp.locator('canvas').first().waitFor();
      const h3 = comp.getByTestId('strap-h-3');
      assert.equal(await h3.inputValue(), '40');
      await comp.getByTestId('strap-capacity').filter({ hasText: '10,000' }).waitFor();

      // row 3 below row 2: the row-level message, and the save is held back
      await h3.fill('5');
      const rowMsg = zh('tankInfo.rowError').replace('{{row}}', '3').replace('{{reason}}', zh('tankInfo.reason.notRising'));
      assert.equal(rowMsg, '第3行：高度必须严格递增');
      await comp.getByTestId('strap-errors').filter({ hasText: rowMsg }).waitFor();
      let saves = 0;
      const count = (r) => {
        if (r.url().endsWith('/base-info-app/tankInfo/saveCar')) saves += 1;
      };
      page.on('request', count);
      await drawer.getByTestId('car-save').click();
      await toast(page, zh('tankInfo.fixFirst').replace('{{no}}', '1')).last().waitFor();
      assert.equal(saves, 0);
      page.off('request', count);

      // fixed: saved, and the server has it
      await h3.fill('41');
      await comp.getByTestId('strap-errors').waitFor({ state: 'detached' });
      const saved = page.waitForResponse((r) => r.url().endsWith('/base-info-app/tankInfo/saveCar'));
      await toastDuring(page, zh('common.modifySuccess'), async () => {
        await drawer.getByTestId('car-save').click();
        const body = await (await saved).json();
        assert.equal(body.code, 1, JSON.stringify(body).slice(0, 300));
      });
      const onServer = await api(env.base, 'GET', `/base-info-app/tankInfo/car?carId=${car.carId}`, { token: admin.access_token });
      assert.equal(onServer.body.data.compartments[0].strap[2].height, 41);
      await drawer.locator('.ant-drawer-close').click();
      await drawer.waitFor({ state: 'hidden' });

      // a ground tank for a demo station, its table pasted from a spreadsheet
      const stations = (await api(env.base, 'GET', '/base-info-app/tankInfo/stations', { token: admin.access_token })).body.data;
      const station = stations[0];
      await pane.getByTestId('tab-ground').click();
      await pane.getByTestId('ground-add').click();
      const modal = page.locator('.ant-modal').filter({ hasText: zh('tankInfo.addTank') });
      await modal.waitFor();
      await modal.locator('#groundTank_stationId').click();
      await modal.locator('#groundTank_stationId').fill(station.stationName);
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: station.stationName }).first().click();
      await modal.locator('#groundTank_tankNo').fill('7');
      await modal.locator('#groundTank_name').fill('e2e 七号罐');
      await modal.locator('#groundTank_capacity').fill('40000');
      await modal.locator('#groundTank_gaugeHost').fill('127.0.0.300');
      await modal.locator('#groundTank_gaugePort').fill('10001');
      await modal.locator('#groundTank_gaugeTank').fill('7');
      await modal.locator('.ant-form-item-explain-error').filter({ hasText: zh('tankInfo.gauge.host') }).first().waitFor();
      await modal.locator('#groundTank_gaugeHost').fill('127.0.0.1');
      await modal.getByTestId('strap-paste').click();
      const paste = page.locator('.ant-modal').filter({ hasText: zh('tankInfo.pasteTitle') });
      await paste.waitFor();
      await paste.getByTestId('paste-text').fill('高度(mm)\t容积(L)\n0\t0\n1000\t19,800\n2000\t40,000\n');
      await paste.getByTestId('paste-replace').click();
      await paste.waitFor({ state: 'hidden' });
      await modal.getByTestId('strap-chart').waitFor();
      assert.equal(await modal.getByTestId('strap-chart').getAttribute('data-points'), '3');
      const added = page.waitForResponse((r) => r.url().endsWith('/base-info-app/tankInfo/groundAdd'));
      await modal.getByTestId('ground-save').click();
      const addBody = await (await added).json();
      assert.equal(addBody.code, 1, JSON.stringify(addBody).slice(0, 300));
      assert.equal(addBody.data.tableCapacity, 40000);
      assert.equal(addBody.data.gaugeHost, '127.0.0.1');
      await toast(page, zh('common.addSuccess')).last().waitFor();
      const id = addBody.data.id;
      const row = pane.locator('.ant-table-row').filter({ hasText: 'e2e 七号罐' });
      await row.waitFor();

      // deleted only after the confirmation
      await pane.getByTestId(`ground-delete-${id}`).click();
      const confirm = page.locator('.ant-modal-confirm').filter({ hasText: zh('common.confirmDelete') });
      await confirm.waitFor();
      await confirm.locator('.ant-btn-dangerous').click();
      await toast(page, zh('common.deleteSuccess')).last().waitFor();
      await row.waitFor({ state: 'detached' });
      const gone = await api(env.base, 'GET', `/base-info-app/tankInfo/ground?id=${id}`, { token: admin.access_token });
      assert.equal(gone.body.code, 0);
    });
  });
});
