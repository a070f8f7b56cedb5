import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import 'dayjs/locale/en';

export const LANGS = ['zh-CN', 'zh-TW', 'en-US'] as const;
export type Lang = (typeof LANGS)[number];
/** Labels of the language switch: each in its own language, the same in every UI language. */
export const LANG_LABELS: Record<Lang, string> = { 'zh-CN': '简体中文', 'zh-TW': '繁體中文', 'en-US': 'English' };
const DAYJS_LOCALE: Record<Lang, string> = { 'zh-CN': 'zh-cn', 'zh-TW': 'zh-tw', 'en-US': 'en' };

/** Browser rule (spec §1): English if navigator.language starts with `en`, else simplified Chinese. */
export function browserLang(nav: string | undefined = typeof navigator !== 'undefined' ? navigator.language : undefined): Lang {
  return nav && nav.toLowerCase().startsWith('en') ? 'en-US' : 'zh-CN';
}

/** The user's saved choice (localStorage `lang`, cleared by logout) or the browser rule. */
export function initialLang(): Lang {
  const saved = localStorage.getItem('lang');
  return (LANGS as readonly string[]).includes(saved ?? '') ? (saved as Lang) : browserLang();
}

dayjs.extend(localizedFormat);

/** Only the active language's texts are loaded (keeps the login route small). */
const LOADERS: Record<Lang, () => Promise<{ default: Record<string, unknown> }>> = {
  'zh-CN': () => import('./zh-CN.json'),
  'zh-TW': () => import('./zh-TW.json'),
  'en-US': () => import('./en-US.json'),
};

async function ensureBundle(lang: Lang): Promise<void> {
  if (i18n.hasResourceBundle(lang, 'translation')) return;
  const mod = await LOADERS[lang]();
  i18n.addResourceBundle(lang, 'translation', mod.default, true, true);
}

let ready: Promise<void> | null = null;

/** Initialises i18next with the initial language; call (and await) before rendering. */
export function initI18n(): Promise<void> {
  if (ready) return ready;
  const lang = initialLang();
  dayjs.locale(DAYJS_LOCALE[lang]);
  document.documentElement.lang = lang;
  ready = (async () => {
    const mod = await LOADERS[lang]();
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

/** Switches i18next, dayjs and (via the store, see Providers) antd's locale. */
export async function applyLang(next: Lang, persist = true): Promise<void> {
  if (persist) localStorage.setItem('lang', next);
  await ensureBundle(next);
  dayjs.locale(DAYJS_LOCALE[next]);
  document.documentElement.lang = next;
  await i18n.changeLanguage(next);
}

export function currentLang(): Lang {
  return (LANGS as readonly string[]).includes(i18n.language) ? (i18n.language as Lang) : 'zh-CN';
}

export default i18n;
