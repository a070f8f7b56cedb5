// Static check of the login route's size from the build manifest (no server needed): the entry, its
// static imports, the lazily loaded LoginPage chunk with its imports and the active language's core
// texts (src/i18n/corePlugin.ts), gzip -9. Fails if antd is among them, or over 250 KB (issue 18; 360
// KB before the login page shed antd, 350 before that: see PERFORMANCE.md and DECISIONS D83).
// Run after `npm run build`. (scripts/login-size.mjs measures the same against a running server.)
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const seen = new Set();
function visit(key) {
  if (!key || seen.has(key)) return;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) visit(dep);
}
const lang = process.argv[2] ?? 'zh-CN';
visit(Object.keys(manifest).find((k) => manifest[k].isEntry));
visit(Object.keys(manifest).find((k) => k.endsWith('features/login/LoginPage.tsx')));
visit(Object.keys(manifest).find((k) => k.endsWith(`i18n-core/${lang}`)));
let total = 0;
let raw = 0;
const rows = [];
const withAntd = [];
for (const key of seen) {
  for (const f of [manifest[key].file, ...(manifest[key].css ?? [])]) {
    const buf = readFileSync(join(dist, f));
    // antd's CSS-in-JS runtime marks its style elements so; the login route has no antd (D83)
    if (f.endsWith('.js') && buf.includes('data-css-hash')) withAntd.push(f);
    const gz = gzipSync(buf, { level: 9 }).length;
    total += gz;
    raw += buf.length;
    rows.push([f, buf.length, gz]);
  }
}
rows.sort((a, b) => b[2] - a[2]);
for (const [f, r, g] of rows) console.log(`${(g / 1024).toFixed(1).padStart(7)} KB gz  ${(r / 1024).toFixed(1).padStart(7)} KB  ${f}`);
console.log(`login route (${lang}): ${(total / 1024).toFixed(1)} KB gzipped (${(raw / 1024).toFixed(1)} KB raw), ${rows.length} files`);
if (withAntd.length) {
  console.error(`antd on the login route (D83): ${withAntd.join(', ')}`);
  process.exit(1);
}
if (total > 250 * 1024) {
  console.error('over the 250 KB budget');
  process.exit(1);
}
