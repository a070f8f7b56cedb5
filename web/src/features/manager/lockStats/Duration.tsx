import { useTranslation } from 'react-i18next';
import { splitDuration } from './model';

/** Seconds as "2 h 05 min 10 s" in the user's language. */
export function Duration({ s }: { s: number }) {
  const { t } = useTranslation();
  const d = splitDuration(s);
  if (d.h > 0) return <>{t('lockStats.hm', { h: d.h, m: String(d.m).padStart(2, '0') })}</>;
  if (d.m > 0) return <>{t('lockStats.ms', { m: d.m, s: String(d.s).padStart(2, '0') })}</>;
  return <>{t('lockStats.s', { s: d.s })}</>;
}
