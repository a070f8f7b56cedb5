// Live monitoring against the in-process simulator: the map draws what the tree checks, and a moving
// car's position updates without reloading the page (over /ws/live).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setup, uiLogin } from './lib.mjs';

const FLEET = 40;

/** The vehicle canvas reports how many cars it holds (data-points). */
async function drawnCars(page) {
  return Number(await page.getByTestId('map-vehicles').getAttribute('data-points'));
}

async function waitDrawn(page, want, ms = 20_000) {
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="map-vehicles"]')?.getAttribute('data-points') === String(n),
    want,
    { timeout: ms },
  );
}

/** The checkbox of a tree node whose title contains text. */
function treeCheckbox(page, text) {
  return page.getByTestId('vehicle-tree').locator('.ant-tree-treenode', { hasText: text }).first().locator('.ant-tree-checkbox');
}

describe('live monitoring', () => {
  const env = setup();

  test('monitoring-all draws every car; unchecking a subsidiary removes its cars, checking it brings them back', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/monitoring-all');
      await waitDrawn(page, FLEET);
      await treeCheckbox(page, '华北分公司').click();
      await page.waitForFunction(
        (n) => Number(document.querySelector('[data-testid="map-vehicles"]')?.getAttribute('data-points')) < n,
        FLEET,
      );
      const without = await drawnCars(page);
      assert.ok(without > 0 && without < FLEET, `drawn after unchecking: ${without}`);
      await treeCheckbox(page, '华北分公司').click();
      await waitDrawn(page, FLEET);
    });
  });

  test('a plate search in the tree narrows the map as well; clearing it brings every checked car back', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/monitoring-all');
      await waitDrawn(page, FLEET);
      const plate = (await page.getByTestId('vehicle-tree').locator('.tw-tree-plate').first().innerText()).trim();
      const search = page.getByTestId('vehicle-search').locator('input').or(page.locator('input[data-testid="vehicle-search"]')).first();
      await search.fill(plate);
      await waitDrawn(page, 1);
      await search.fill('');
      await waitDrawn(page, FLEET);
    });
  });

  test('monitoring starts with nothing checked; checking one car draws it', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/monitoring');
      await page.getByTestId('vehicle-tree').locator('[data-testid^="tree-car-"]').first().waitFor();
      await waitDrawn(page, 0);
      const first = page.getByTestId('vehicle-tree').locator('.ant-tree-treenode', { has: page.locator('[data-testid^="tree-car-"]') }).first();
      await first.locator('.ant-tree-checkbox').click();
      await waitDrawn(page, 1);
      await first.locator('.ant-tree-checkbox').click();
      await waitDrawn(page, 0);
    });
  });

  test('a moving car’s position and time update without reloading', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/monitoring2?code=4&title=moving');
      const car = page.getByTestId('vehicle-tree').locator('[data-testid^="tree-car-"]').first();
      await car.waitFor();
      await car.click();
      const time = page.getByTestId('detail-time');
      await time.waitFor();
      await page.waitForFunction(() => /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/.test(document.querySelector('[data-testid="detail-time"]')?.textContent ?? ''));
      const before = await time.textContent();
      const navigations = [];
      page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));
      // the demo terminals report every 10 s while driving
      await page.waitForFunction((b) => document.querySelector('[data-testid="detail-time"]')?.textContent !== b, before, { timeout: 40_000 });
      assert.deepEqual(navigations, [], 'no reload');
      assert.equal(await page.getByTestId('live-state').getAttribute('data-state'), 'open');
    });
  });
});
