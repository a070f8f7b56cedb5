import { chromium } from 'playwright-core';
const base = process.argv[2];
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
for (const locale of ['zh-CN', 'en-US']) {
  const ctx = await b.newContext({ locale, baseURL: base, viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  await page.goto('/#/login');
  await page.locator('#account').fill('admin');
  await page.locator('#password').fill('admin123');
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/#\/home$/);
  await page.goto('/#/manager/tankEventRecord');
  await page.getByTestId('gauge-panel').waitFor();
  await page.locator('.ant-table-row').nth(3).waitFor();
  await page.waitForTimeout(1500);
  for (const m of await page.locator('.ant-modal-close').all()) await m.click().catch(() => {});
  await page.screenshot({ path: `/tmp/gauges-shots/tankEvents-${locale}.png` });
  await ctx.close();
}
await b.close();
