import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGS = ['zh-CN', 'zh-TW', 'en-US'] as const;
export type Lang = (typeof LANGS)[number];
/** Labels of the language switch: each in its own language, the same in every UI language. */
export const LANG_LABELS: Record<Lang, string> = { 'zh-CN': '简体中文', 'zh-TW': '繁體中文', 'en-US': 'English' };

/** Browser rule (spec §1): English if navigator.language starts with `en`, else simplified Chinese. */
export function browserLang(nav: string | undefined = typeof navigator !== 'undefined' ? navigator.language : undefined): Lang {
  return nav && nav.toLowerCase().startsWith('en') ? 'en-US' : 'zh-CN';
}

/** The user's saved choice (localStorage `lang`, cleared by logout) or the browser rule. */
export function initialLang(): Lang {
  const saved = localStorage.getItem('lang');
  return (LANGS as readonly string[]).includes(saved ?? '') ? (saved as Lang) : browserLang();
}

type Loader = () => Promise<{ default: Record<string, unknown> }>;

/**
 * Only the active language's texts are loaded, in two steps: the login route gets the core namespaces
 * (corePlugin.ts); the shell and every page wait for all texts (ensureAllTexts), so features' texts
 * never weigh on the login route.
 */
const CORE: Record<Lang, Loader> = {
  'zh-CN': () => import('virtual:i18n-core/zh-CN'),
  'zh-TW': () => import('virtual:i18n-core/zh-TW'),
  'en-US': () => import('virtual:i18n-core/en-US'),
};
const ALL: Record<Lang, Loader> = {
  'zh-CN': () => import('./zh-CN.json'),
  'zh-TW': () => import('./zh-TW.json'),
  'en-US': () => import('./en-US.json'),
};

const loaded = new Map<string, Promise<void>>();
/** Set once a page needed all texts: a language switch then loads all texts of the new language too. */
let wantAll = false;

function load(lang: Lang, all: boolean): Promise<void> {
  const key = `${lang}/${all ? 'all' : 'core'}`;
  let p = loaded.get(key);
  if (!p) {
    p = (all ? ALL : CORE)[lang]().then((mod) => {
      i18n.addResourceBundle(lang, 'translation', mod.default, true, true);
    });
    p.catch(() => loaded.delete(key)); // a failed chunk load may be retried
    loaded.set(key, p);
  }
  return p;
}

async function ensureBundle(lang: Lang): Promise<void> {
  await load(lang, false);
  if (wantAll) await load(lang, true);
}

/**
 * All texts of the current language; the router awaits it with the shell's and pages' code. The router
 * may resolve the first route while i18next is still initialising: wait for that first.
 */
export async function ensureAllTexts(): Promise<void> {
  wantAll = true;
  await initI18n();
  await load(currentLang(), true);
}

let ready: Promise<void> | null = null;

/** Initialises i18next with the initial language; call (and await) before rendering. */
export function initI18n(): Promise<void> {
  if (ready) return ready;
  const lang = initialLang();
  document.documentElement.lang = lang;
  ready = (async () => {
    const mod = await CORE[lang]();
    loaded.set(`${lang}/core`, Promise.resolve());
    await i18n.use(initReactI18next).init({
      resources: { [lang]: { translation: mod.default } },
      lng: lang,
      fallbackLng: false,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  })();
  return ready;
}

/**
 * Switches i18next and, through it, dayjs (dayjsLocale.ts, once the console has loaded it) and (via the
 * store, see Providers) antd's locale.
 */
export async function applyLang(next: Lang, persist = true): Promise<void> {
  if (persist) localStorage.setItem('lang', next);
  await ensureBundle(next);
  document.documentElement.lang = next;
  await i18n.changeLanguage(next);
}

export function currentLang(): Lang {
  return (LANGS as readonly string[]).includes(i18n.language) ? (i18n.language as Lang) : 'zh-CN';
}

export default i18n;
