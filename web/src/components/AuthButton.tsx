import type { ReactNode } from 'react';
import { usePageHandle } from '../app/routeMeta';
import { useAppStore } from '../app/store';
import { hasButton } from '../lib/buttonPermission';

/**
 * Shows its children only if the button permission `code` is authorised on the current page:
 * either in full (`userInfo-add`) or as a suffix (`add`) joined to the route's page name.
 */
export function AuthButton({ code, children }: { code: string; children: ReactNode }) {
  const allowed = useAuth(code);
  return allowed ? <>{children}</> : null;
}

/** Hook form of AuthButton for columns/menus. */
export function useAuth(code: string): boolean {
  const setMenu = useAppStore((s) => s.setMenu);
  const page = usePageHandle()?.name ?? '';
  return hasButton(setMenu, page, code);
}
