// The fleet registry pages list what `serve --demo --demo-vehicles 40` seeded: 40 vehicles, each with a
// terminal and a SIM card.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setup, tile, tr, uiLogin, waitForPage } from './lib.mjs';

const FLEET = 40;
const zh = (key) => tr('zh-CN', key);
const totalText = (n) => zh('common.total').replace('{{total}}', String(n));

const PAGES = [
  { name: 'groupCar', api: '/base-info-app/carInfo/page', cell: (r) => r.plate },
  { name: 'terminalVXE', api: '/base-info-app/terminal/page', cell: (r) => r.phone },
  { name: 'simInfoVXE', api: '/base-info-app/simInfo/page', cell: (r) => r.iccid },
];

/** Opens a 基础信息 page from the side menu; resolves to the first page answer's data. */
async function openPage(page, name, apiPath) {
  const first = page.waitForResponse((r) => r.url().endsWith(apiPath));
  await page.locator('.tw-sider-menu .ant-menu-item').filter({ hasText: zh(`menu.${name}`) }).click();
  await waitForPage(page, `/basedata/${name}`);
  const body = await (await first).json();
  assert.equal(body.code, 1, JSON.stringify(body));
  return body.data;
}

/** Rows of the visible tab's table. */
const rowsOf = (page) => page.locator('.tw-page:visible .ant-table-tbody tr.ant-table-row');

describe('fleet registry pages', () => {
  const env = setup();

  test('vehicles, terminals and SIM cards each list the 40 demo records', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'basedata').click();
      for (const p of PAGES) {
        const data = await openPage(page, p.name, p.api);
        assert.equal(data.total, FLEET, `${p.name}: ${data.total}`);
        assert.equal(data.list.length, 10, `${p.name}: the first page of 10`);
        await page.locator('.tw-page:visible .ant-pagination-total-text').filter({ hasText: totalText(FLEET) }).waitFor();
        // the table shows the answer's records
        const shown = p.cell(data.list[0]);
        await rowsOf(page).first().filter({ hasText: shown }).waitFor();
        assert.equal(await rowsOf(page).count(), 10, `${p.name}: rows on the first page`);
      }
    });
  });

  test('filtering the vehicle list by a plate finds exactly that vehicle', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await tile(page, 'basedata').click();
      const data = await openPage(page, 'groupCar', '/base-info-app/carInfo/page');
      const car = data.list[3];
      const others = data.list.filter((c) => c.id !== car.id).map((c) => c.plate);

      const filtered = page.waitForResponse(
        (r) => r.url().endsWith('/base-info-app/carInfo/page') && JSON.parse(r.request().postData() || '{}').plate === car.plate,
      );
      await page.locator('.tw-filter-form #plate').fill(car.plate);
      await page.locator('.tw-filter-form button[type="submit"]').click();
      const list = (await (await filtered).json()).data;
      assert.equal(list.total, 1, JSON.stringify(list));
      assert.equal(list.list[0].id, car.id);

      await page.waitForFunction(
        (plate) => {
          const rows = [...document.querySelectorAll('.tw-page .ant-table-tbody tr.ant-table-row')].filter((r) => r.offsetParent !== null);
          return rows.length === 1 && rows[0].innerText.includes(plate);
        },
        car.plate,
      );
      const text = await rowsOf(page).first().innerText();
      for (const other of others) assert.equal(text.includes(other), false, `${other} is filtered out`);
      await page.locator('.tw-page:visible .ant-pagination-total-text').filter({ hasText: totalText(1) }).waitFor();

      // the same plate typed without its middle dot, in lower case, finds the same vehicle (DECISIONS D30)
      const typed = car.plate.replace('·', ' ').toLowerCase();
      assert.notEqual(typed, car.plate);
      const again = page.waitForResponse(
        (r) => r.url().endsWith('/base-info-app/carInfo/page') && JSON.parse(r.request().postData() || '{}').plate === typed,
      );
      await page.locator('.tw-filter-form #plate').fill(typed);
      await page.locator('.tw-filter-form button[type="submit"]').click();
      const found = (await (await again).json()).data;
      assert.equal(found.total, 1, JSON.stringify(found));
      assert.equal(found.list[0].id, car.id);
      await rowsOf(page).first().filter({ hasText: car.plate }).waitFor();
    });
  });
});
