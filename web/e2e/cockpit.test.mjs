// The home cockpit against the running demo fleet: its counts are the count call's, a count card opens
// monitoring2 filtered by its code, and a user of one subsidiary sees only that subsidiary's vehicles.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, apiLogin, setup, tr, uiLogin } from './lib.mjs';

const COUNT = '/monitor-app/realTimeMoitoring/carCount';

describe('home cockpit', () => {
  const env = setup();

  test('shows the count call’s numbers and what needs attention', async (t) => {
    await env.page(t, async (page) => {
      const answer = page.waitForResponse((r) => r.url().includes(COUNT));
      await uiLogin(page, 'admin', 'admin123');
      const counts = (await (await answer).json()).data;
      assert.equal(counts['8'], 40, 'the demo fleet');
      assert.equal(counts['4'] + counts['5'] + counts['7'], counts['8'], 'a car is in exactly one of 4, 5, 7');
      for (const code of ['8', '4', '5', '7', '3']) {
        assert.equal(await page.getByTestId(`count-${code}`).textContent(), String(counts[code]), `count ${code}`);
      }
      await page.getByTestId('watch-3').waitFor();
      await page.getByTestId('watch-7').waitFor();
      assert.equal(await page.locator('.tw-tile[data-module="home"] .tw-tile-count').textContent(), '40');
    });
  });

  test('a count card opens monitoring2 with its code and title', async (t) => {
    await env.page(t, async (page) => {
      await uiLogin(page, 'admin', 'admin123');
      await page.getByTestId('count-4').waitFor();
      await page.locator('.tw-count-card[data-code="4"]').click();
      await page.waitForURL(/#\/manager\/monitoring2\?/);
      const q = new URLSearchParams(page.url().split('?')[1]);
      assert.equal(q.get('code'), '4');
      assert.equal(q.get('title'), tr('zh-CN', 'home.count.4'));
    });
  });

  test('a subsidiary’s user sees its own vehicles', async (t) => {
    await env.page(t, async (page) => {
      const customer = await apiLogin(env.base, 'customer', 'customer123');
      const own = (await api(env.base, 'GET', COUNT, { token: customer.access_token })).body.data;
      assert.ok(own['8'] > 0 && own['8'] < 40, `customer sees part of the fleet: ${own['8']}`);
      await uiLogin(page, 'customer', 'customer123');
      assert.equal(await page.getByTestId('count-8').textContent(), String(own['8']));
    });
  });
});
