import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import 'dayjs/locale/en';
import zhCN from './zh-CN.json';
import zhTW from './zh-TW.json';
import enUS from './en-US.json';

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

const lang = initialLang();
dayjs.locale(DAYJS_LOCALE[lang]);

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, 'zh-TW': { translation: zhTW }, 'en-US': { translation: enUS } },
  lng: lang,
  fallbackLng: 'zh-CN',
  interpolation: { escapeValue: false },
  returnNull: false,
});
document.documentElement.lang = lang;

/** Switches i18next, dayjs and (via the store subscriber in app/providers) antd's locale. */
export function applyLang(next: Lang, persist = true): void {
  if (persist) localStorage.setItem('lang', next);
  dayjs.locale(DAYJS_LOCALE[next]);
  document.documentElement.lang = next;
  void i18n.changeLanguage(next);
}

export function currentLang(): Lang {
  return (LANGS as readonly string[]).includes(i18n.language) ? (i18n.language as Lang) : 'zh-CN';
}

export default i18n;
