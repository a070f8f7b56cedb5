// Merges texts into the three language files: node scripts/i18n-merge.mjs texts.json
// texts.json is {"zh-CN": {...}, "zh-TW": {...}, "en-US": {...}}, nested like the language files; its keys
// are added (or replace existing ones). Several people may run it at once: a lock directory serialises
// them, and each file is written whole with the files' own formatting (2-space JSON, UTF-8, newline).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'i18n');
const input = process.argv[2];
if (!input) {
  console.error('usage: node scripts/i18n-merge.mjs texts.json');
  process.exit(2);
}
const texts = JSON.parse(fs.readFileSync(input, 'utf8'));
const langs = ['zh-CN', 'zh-TW', 'en-US'];
for (const l of langs) {
  if (!texts[l]) {
    console.error(`${input}: no "${l}" texts (all three languages are required)`);
    process.exit(2);
  }
}

function merge(dst, src, at) {
  for (const [k, v] of Object.entries(src)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      if (dst[k] !== undefined && (typeof dst[k] !== 'object' || dst[k] === null)) throw new Error(`${at}${k} is a text, not a group`);
      dst[k] = dst[k] ?? {};
      merge(dst[k], v, `${at}${k}.`);
    } else {
      if (typeof dst[k] === 'object' && dst[k] !== null) throw new Error(`${at}${k} is a group, not a text`);
      dst[k] = v;
    }
  }
}

const lock = path.join(dir, '.merge.lock');
const deadline = Date.now() + 30000;
for (;;) {
  try {
    fs.mkdirSync(lock);
    break;
  } catch {
    if (Date.now() > deadline) {
      console.error(`could not take ${lock} (remove it if no merge is running)`);
      process.exit(1);
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}
try {
  for (const l of langs) {
    const file = path.join(dir, `${l}.json`);
    const cur = JSON.parse(fs.readFileSync(file, 'utf8'));
    merge(cur, texts[l], '');
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(cur, null, 2) + '\n');
    fs.renameSync(`${file}.tmp`, file);
  }
} finally {
  fs.rmdirSync(lock);
}
console.log(`merged ${input} into ${langs.join(', ')}`);
