import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import 'dayjs/locale/en';
import i18n, { currentLang, type Lang } from '.';

/**
 * dayjs's locales follow the console language. Imported by the signed-in console (ConsoleRoot) and not
 * by the login route, which formats no dates (D83): from then on every language switch sets dayjs too.
 */
const DAYJS_LOCALE: Record<Lang, string> = { 'zh-CN': 'zh-cn', 'zh-TW': 'zh-tw', 'en-US': 'en' };

dayjs.extend(localizedFormat);
dayjs.locale(DAYJS_LOCALE[currentLang()]);
i18n.on('languageChanged', (lng: string) => {
  const l = lng as Lang;
  if (l in DAYJS_LOCALE) dayjs.locale(DAYJS_LOCALE[l]);
});
