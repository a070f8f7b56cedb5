import { useCallback } from 'react';
import { applyLang, type Lang } from '../i18n';
import { useAppStore } from './store';

/** Switch language: i18next, dayjs, antd locale (via the store) and localStorage `lang`. */
export function useLanguage(): [Lang, (l: Lang) => void] {
  const lang = useAppStore((s) => s.lang);
  const setLang = useAppStore((s) => s.setLang);
  const change = useCallback(
    (l: Lang) => {
      void applyLang(l).then(() => setLang(l));
    },
    [setLang],
  );
  return [lang, change];
}
