import { useQuery } from '@tanstack/react-query';
import { groupTrees } from '../../../api/group';
import type { Group } from '../../../api/types';

export interface GroupOption {
  value: number;
  title: string;
  key: number;
  disabled?: boolean;
  children?: GroupOption[];
}

/** TreeSelect data of the group tree; `exclude` (and its subtree) is disabled — a group cannot move under itself. */
export function toGroupOptions(groups: readonly Group[] | undefined, exclude?: number, inExcluded = false): GroupOption[] {
  return (groups ?? []).map((g) => {
    const off = inExcluded || g.id === exclude;
    const children = g.children?.length ? toGroupOptions(g.children, exclude, off) : undefined;
    return { value: g.id, key: g.id, title: g.name, ...(off ? { disabled: true } : {}), ...(children ? { children } : {}) };
  });
}

/** Depth-first lookup. */
export function findGroup(groups: readonly Group[] | undefined, id: number | null | undefined): Group | undefined {
  if (id == null) return undefined;
  for (const g of groups ?? []) {
    if (g.id === id) return g;
    const hit = findGroup(g.children ?? [], id);
    if (hit) return hit;
  }
  return undefined;
}

/** Ids from a root of the tree down to `id` (inclusive); [] when absent. */
export function pathTo(groups: readonly Group[] | undefined, id: number): number[] {
  for (const g of groups ?? []) {
    if (g.id === id) return [g.id];
    const sub = pathTo(g.children ?? [], id);
    if (sub.length) return [g.id, ...sub];
  }
  return [];
}

/** All ids in the tree (for "expand all"). */
export function allIds(groups: readonly Group[] | undefined): number[] {
  return (groups ?? []).flatMap((g) => [g.id, ...allIds(g.children ?? [])]);
}

/** The caller's group tree (POST findTrees), shared by the user, role and group pages. */
export function useGroupTree() {
  return useQuery({ queryKey: ['groupTrees'], queryFn: () => groupTrees(), staleTime: 30_000 });
}

/** Nodes whose name contains `text` (case-insensitive), with their ancestors; all nodes when empty. */
export function filterTree(groups: readonly Group[] | undefined, text: string): Group[] {
  const q = text.trim().toLowerCase();
  if (!q) return [...(groups ?? [])];
  const out: Group[] = [];
  for (const g of groups ?? []) {
    const kids = filterTree(g.children ?? [], q);
    if (g.name.toLowerCase().includes(q) || kids.length) out.push({ ...g, children: kids });
  }
  return out;
}
