// Shared by the perf scripts: headless Debian Chromium, and signing in as the demo admin.
import { chromium } from 'playwright-core';

export const VIEWPORT = { width: 1600, height: 900 };

export function launch() {
  return chromium.launch({
    executablePath: process.env.TANKWATCH_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
}

/** Signs in through the login page as admin / admin123 and waits for the home page. */
export async function signIn(page, base) {
  await page.goto(`${base}/#/login`);
  await page.locator('#account').fill('admin');
  await page.locator('#password').fill('admin123');
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/#\/home/, { timeout: 60_000 });
}
