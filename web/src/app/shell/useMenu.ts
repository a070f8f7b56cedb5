import { useMemo } from 'react';
import { filterMenu } from '../../lib/menuFilter';
import { MODULES, type ModuleDef } from '../pages';
import { useAppStore } from '../store';

/** The permitted modules (spec §6) with their permitted pages; error text if the menu is null. */
export function usePermittedMenu(): { modules: ModuleDef[]; error: string | null } {
  const authMenu = useAppStore((s) => s.authMenu);
  return useMemo(() => {
    try {
      return { modules: filterMenu(MODULES, authMenu), error: null };
    } catch (e) {
      return { modules: [], error: (e as Error).message };
    }
  }, [authMenu]);
}

/** Number of permitted pages a module tile counts. */
export function pageCount(m: ModuleDef): number {
  return m.page ? 1 : m.children.length;
}
