import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { carCount } from '../../api/vehicleCounts';
import { COCKPIT_REFRESH_MS, menuHasCode, tileCount } from '../../lib/cockpit';
import type { ModuleDef } from '../pages';
import { useAppStore } from '../store';
import { pageCount } from './useMenu';

/** The header tiles' counts: the cockpit's vehicle counts (same query, polled every 30 s) where they apply. */
export function useTileCounts(): (m: ModuleDef) => { n: number; title: string } {
  const { t } = useTranslation();
  const authMenu = useAppStore((s) => s.authMenu);
  const allowed = menuHasCode(authMenu, '01') || menuHasCode(authMenu, '04');
  const counts = useQuery({ queryKey: ['cockpit', 'carCount'], queryFn: () => carCount(), refetchInterval: COCKPIT_REFRESH_MS, enabled: allowed });
  return (m) => {
    const c = tileCount(m.name, counts.data, pageCount(m));
    return { n: c.n, title: t(`shell.tileCount.${c.kind}`, { n: c.n }) };
  };
}
