import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The namespaces the login route shows (login form, language switch, theme titles, request errors).
 * Everything else loads with the shell and pages after sign-in, so the login route's size does not grow
 * with every feature's texts.
 */
export const CORE_NAMESPACES = ['app', 'lang', 'theme', 'auth', 'common'];

const PREFIX = 'virtual:i18n-core/';

/** `import core from 'virtual:i18n-core/zh-CN'`: the core namespaces of src/i18n/zh-CN.json. */
export function i18nCore(dir: string): Plugin {
  return {
    name: 'tankwatch-i18n-core',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const file = resolve(dir, `${id.slice(PREFIX.length + 1)}.json`);
      this.addWatchFile(file);
      const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      return `export default ${JSON.stringify(Object.fromEntries(CORE_NAMESPACES.map((k) => [k, all[k] ?? {}])))};`;
    },
  };
}
