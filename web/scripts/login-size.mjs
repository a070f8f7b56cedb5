// Measures the JavaScript the login page really loads: opens /#/login of a running server in Chromium,
// records every script response, and sums their gzipped sizes (gzip -9 of the bytes served).
// Usage: node scripts/login-size.mjs http://127.0.0.1:8080
import { chromium } from 'playwright-core';
import { gzipSync } from 'node:zlib';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const browser = await chromium.launch({
  executablePath: process.env.TANKWATCH_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage();
const scripts = [];
page.on('response', async (r) => {
  if (r.request().resourceType() === 'script') scripts.push(r);
});
await page.goto(`${base}/#/login`, { waitUntil: 'networkidle' });
let raw = 0;
let gz = 0;
for (const r of scripts) {
  const body = await r.body();
  const size = gzipSync(body, { level: 9 }).length;
  raw += body.length;
  gz += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB gz  ${new URL(r.url()).pathname}`);
}
console.log(`total: ${scripts.length} scripts, ${(raw / 1024).toFixed(0)} KB raw, ${(gz / 1024).toFixed(1)} KB gzipped`);
await browser.close();
