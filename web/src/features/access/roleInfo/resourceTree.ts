import type { DataNode } from 'antd/es/tree';
import type { MenuNode } from '../../../api/types';

/** Parent/children index of the grantable menu tree, keyed by permission code. */
export interface TreeIndex {
  parent: Map<string, string | null>;
  children: Map<string, string[]>;
  /** Codes in tree order. */
  order: string[];
}

export function indexTree(nodes: readonly MenuNode[] | null | undefined): TreeIndex {
  const idx: TreeIndex = { parent: new Map(), children: new Map(), order: [] };
  const walk = (list: readonly MenuNode[], parent: string | null) => {
    for (const n of list) {
      idx.parent.set(n.code, parent);
      idx.order.push(n.code);
      const kids = n.children ?? [];
      idx.children.set(n.code, kids.map((c) => c.code));
      walk(kids, n.code);
    }
  };
  walk(nodes ?? [], null);
  return idx;
}

function ancestors(idx: TreeIndex, code: string): string[] {
  const out: string[] = [];
  for (let p = idx.parent.get(code) ?? null; p; p = idx.parent.get(p) ?? null) out.push(p);
  return out;
}

function descendants(idx: TreeIndex, code: string): string[] {
  return (idx.children.get(code) ?? []).flatMap((c) => [c, ...descendants(idx, c)]);
}

const inOrder = (idx: TreeIndex, set: Set<string>) => idx.order.filter((c) => set.has(c));

/**
 * Checking a node checks its whole subtree and its ancestors (a button needs its page, a page its
 * module); unchecking a node unchecks its subtree. Ancestors stay checked so a page may be granted
 * without any of its buttons.
 */
export function toggleCode(idx: TreeIndex, checked: readonly string[], code: string, on: boolean): string[] {
  const set = new Set(checked);
  if (on) [code, ...descendants(idx, code), ...ancestors(idx, code)].forEach((c) => set.add(c));
  else [code, ...descendants(idx, code)].forEach((c) => set.delete(c));
  return inOrder(idx, set);
}

/** The codes to save: only codes of the tree, plus the module/page codes above every checked code. */
export function resourceCodesOf(idx: TreeIndex, checked: readonly string[]): string[] {
  const set = new Set<string>();
  for (const c of checked) {
    if (!idx.parent.has(c)) continue;
    set.add(c);
    ancestors(idx, c).forEach((a) => set.add(a));
  }
  return inOrder(idx, set);
}

/** antd Tree data: key = code, title = the translated menu name. */
export function toTreeData(nodes: readonly MenuNode[] | null | undefined, title: (n: MenuNode) => string): DataNode[] {
  return (nodes ?? []).map((n) => ({
    key: n.code,
    title: title(n),
    children: n.children?.length ? toTreeData(n.children, title) : undefined,
  }));
}
