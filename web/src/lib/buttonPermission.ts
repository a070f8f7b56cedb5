import type { AuthNode } from './menuFilter';

/** Finds the authorised node whose path equals `path` (depth-first). */
export function findNodeByPath(menu: readonly AuthNode[] | null | undefined, path: string): AuthNode | undefined {
  for (const node of menu ?? []) {
    if (node.path === path) return node;
    const hit = findNodeByPath(node.children ?? [], path);
    if (hit) return hit;
  }
  return undefined;
}

/** setMenu: the button names (e.g. `userInfo-add`) authorised on the page at `path`. */
export function buttonsForPath(menu: readonly AuthNode[] | null | undefined, path: string): string[] {
  const node = findNodeByPath(menu, path);
  return (node?.children ?? []).filter((c) => (c.code ?? '').length > 5).map((c) => c.name);
}

/**
 * A button permission code is given in full (`userInfo-add`) or as a suffix (`add`) that is joined to
 * the current route's page name. Returns true only if the resulting name is in setMenu.
 */
export function hasButton(setMenu: readonly string[], pageName: string, code: string): boolean {
  if (!code) return false;
  if (setMenu.includes(code)) return true;
  return setMenu.includes(`${pageName}-${code}`);
}
