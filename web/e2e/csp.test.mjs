// The console works under its Content-Security-Policy: sign-in, the live map (tiles from the
// configured Gaode host, /ws/live), the users page and the MQTT connection raise no CSP violation.
// Tile requests are answered here with a blank PNG, so nothing reaches the internet; the CSP is
// checked by the browser before a request is made, so a blocked tile host still shows as a violation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setup, uiLogin } from './lib.mjs';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('content security policy', () => {
  const env = setup({ args: ['--map-tiles', 'gaode'] });

  test('headers are sent and the console raises no violation', async (t) => {
    await env.page(t, async (page) => {
      const violations = [];
      await page.addInitScript(() => {
        window.__csp = [];
        document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      let tiles = 0;
      await page.route(/^https:\/\/webrd0\d\.is\.autonavi\.com\//, (route) => {
        tiles += 1;
        return route.fulfill({ status: 200, contentType: 'image/png', body: PNG });
      });

      const res = await page.goto('/');
      const h = res.headers();
      assert.match(h['content-security-policy'], /frame-ancestors 'none'/);
      assert.match(h['content-security-policy'], /img-src [^;]*https:\/\/\*\.is\.autonavi\.com/);
      assert.equal(h['x-frame-options'], 'DENY');
      assert.equal(h['x-content-type-options'], 'nosniff');
      assert.equal(h['referrer-policy'], 'strict-origin-when-cross-origin');

      await uiLogin(page, 'admin', 'admin123');
      await page.goto('/#/manager/monitoring-all');
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="map-vehicles"]')?.getAttribute('data-points')) > 0);
      await page.waitForFunction(() => document.querySelectorAll('.leaflet-tile-loaded').length > 0);
      await page.goto('/#/access/userInfo');
      await page.getByText('dispatcher').first().waitFor();

      const seen = await page.evaluate(() => window.__csp);
      assert.ok(tiles > 0, 'the map asked for tiles');
      assert.deepEqual([...seen, ...violations], [], 'CSP violations');
    });
  });
});
