// temporary screenshot script (not committed)
import { dismissLiveDialogs, launchBrowser, uiLogin, waitForPage } from './lib.mjs';
const base = 'http://127.0.0.1:18105';
const [, , lang = 'zh-CN', ...pages] = process.argv;
const browser = await launchBrowser();
const ctx = await browser.newContext({ locale: lang, baseURL: base, viewport: { width: 1440, height: 900 } });
const page = await ctx.newPage();
await dismissLiveDialogs(page);
await uiLogin(page, 'admin', 'admin123');
for (const p of pages) {
  const [name, action] = p.split(':');
  await page.goto(`/#/manager/${name}`);
  const pane = await waitForPage(page, `/manager/${name}`);
  await pane.locator('[data-testid="totals-row"]').waitFor({ timeout: 20000 });
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/tripstats_shots/${name}-${lang}.png` });
  const chart = pane.locator('[data-testid="stat-chart"]');
  if (await chart.count()) {
    await chart.scrollIntoViewIfNeeded();
    await page.waitForTimeout(800);
    await page.screenshot({ path: `/tmp/tripstats_shots/${name}-chart-${lang}.png` });
  }
  if (action === 'drill') {
    await pane.locator('[data-testid="total-lossL"]').click();
    await page.locator('[data-testid="drill-count"]').waitFor();
    await page.waitForTimeout(800);
    await page.screenshot({ path: `/tmp/tripstats_shots/${name}-drill-${lang}.png` });
    await page.keyboard.press('Escape');
  }
}
await browser.close();
