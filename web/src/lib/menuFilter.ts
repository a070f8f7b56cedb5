/** Spec §6: the permitted menu is the local menu definition filtered by the server's authorised tree. */
export interface AuthNode {
  name: string;
  title?: string;
  code?: string;
  path?: string;
  icon?: string;
  allScreen?: boolean;
  href?: string;
  redirect?: string;
  checked?: boolean;
  children?: AuthNode[] | null;
}

export interface LocalNode {
  name: string;
  children?: LocalNode[];
}

export const NO_PERMISSION = '当前用户未设置权限';
/** Page codes are `NN-NN`; longer codes are buttons. */
export const MAX_MENU_CODE_LENGTH = 5;

export class NoPermissionError extends Error {
  constructor() {
    super(NO_PERMISSION);
    this.name = 'NoPermissionError';
  }
}

/**
 * Keeps a top-level local item only if an authorised top-level item has its name, and a child only
 * if an authorised child of that parent has its name and a code of at most 5 characters.
 * A null/undefined authorised menu throws NoPermissionError ('当前用户未设置权限').
 */
export function filterMenu<T extends LocalNode>(local: readonly T[], auth: readonly AuthNode[] | null | undefined): T[] {
  if (auth == null) throw new NoPermissionError();
  const out: T[] = [];
  for (const item of local) {
    const authItem = auth.find((a) => a.name === item.name);
    if (!authItem) continue;
    const authChildren = authItem.children ?? [];
    const children = (item.children ?? []).filter((child) =>
      authChildren.some((a) => a.name === child.name && (a.code ?? '').length <= MAX_MENU_CODE_LENGTH),
    );
    out.push({ ...item, children } as T);
  }
  return out;
}
