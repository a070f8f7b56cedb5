import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Whether the screen is a wall screen (bigger type in the chart). */
export function useLarge(): boolean {
  const [large, setLarge] = useState(() => typeof window !== 'undefined' && window.innerWidth >= 2560);
  useEffect(() => {
    const on = () => setLarge(window.innerWidth >= 2560);
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return large;
}

/** "≈ 5 min per bucket" / "raw readings". */
export function useResolution() {
  const { t } = useTranslation();
  return (bucketMs: number) => {
    if (!bucketMs) return t('trend.raw');
    const min = bucketMs / 60_000;
    return t('trend.resolution', { n: min >= 60 ? t('trend.hours', { n: Math.round((min / 60) * 10) / 10 }) : t('trend.minutes', { n: Math.max(1, Math.round(min)) }) });
  };
}
