import type { GroupCarNode } from '../../../api/group';

/** Tree keys: groups `g-<id>`, cars `c-<id>`, video channels `<carId>-<channelNo>`. */
export const groupKey = (id: number) => `g-${id}`;
export const carKey = (id: number) => `c-${id}`;
export const isGroupKey = (key: string | number | bigint) => String(key).startsWith('g-');

export function carIdOfKey(key: string | number | bigint): number | null {
  const m = /^c-(\d+)$/.exec(String(key));
  return m ? Number(m[1]) : null;
}

export interface VehicleTreeNode {
  key: string;
  type: 'group' | 'car';
  id: number;
  /** group name or plate */
  name: string;
  /** cars shown under a group (its subtree) */
  count: number;
  children?: VehicleTreeNode[];
  isLeaf?: boolean;
}

export interface VehicleTree {
  nodes: VehicleTreeNode[];
  /** Every car the tree shows, in tree order. */
  carIds: number[];
  /** Every group the tree shows. */
  groupKeys: string[];
}

/**
 * Plates compare without the middle dot (any of its forms), spaces or case, full-width letters and
 * digits as half-width: "沪a6n" finds 沪A·6N337 — the server's plate.Key (internal/platform/plate).
 */
export function normalisePlate(s: string): string {
  return s
    .replace(/[·・･•⋅‧.．\-－\s]/g, '')
    .replace(/[Ａ-Ｚａ-ｚ０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .toUpperCase();
}

export interface TreeFilter {
  /** plate (or group name) contains */
  search?: string;
  /** whether a car passes the status filter */
  match?: (carId: number) => boolean;
}

/**
 * The vehicle tree as shown: groups with their cars, filtered by a search (plate, or the name of a group
 * above the car) and a status filter. Without a filter every group is shown; with one, only groups that
 * hold a shown car.
 */
export function buildVehicleTree(src: readonly GroupCarNode[] | null | undefined, filter: TreeFilter = {}): VehicleTree {
  const q = normalisePlate(filter.search ?? '');
  const rawQ = (filter.search ?? '').trim().toUpperCase();
  const filtering = q !== '' || !!filter.match;
  const carIds: number[] = [];
  const groupKeys: string[] = [];

  function walk(n: GroupCarNode, groupMatched: boolean): VehicleTreeNode | null {
    if (n.type === 'car') {
      const plate = n.plate || n.name;
      if (q && !groupMatched && !normalisePlate(plate).includes(q)) return null;
      if (filter.match && !filter.match(n.id)) return null;
      carIds.push(n.id);
      return { key: carKey(n.id), type: 'car', id: n.id, name: plate, count: 1, isLeaf: true };
    }
    const matched = groupMatched || (rawQ !== '' && n.name.toUpperCase().includes(rawQ));
    const children: VehicleTreeNode[] = [];
    let count = 0;
    for (const c of n.children ?? []) {
      const child = walk(c, matched);
      if (child) {
        children.push(child);
        count += child.count;
      }
    }
    if (filtering && count === 0) return null;
    groupKeys.push(groupKey(n.id));
    return { key: groupKey(n.id), type: 'group', id: n.id, name: n.name, count, children };
  }

  const nodes: VehicleTreeNode[] = [];
  for (const n of src ?? []) {
    const x = walk(n, false);
    if (x) nodes.push(x);
  }
  return { nodes, carIds, groupKeys };
}

/** Every car id of the source tree (what "all" means on monitoring-all). */
export function allCarIds(src: readonly GroupCarNode[] | null | undefined): number[] {
  return buildVehicleTree(src).carIds;
}

/** Plate of every car of the source tree. */
export function platesById(src: readonly GroupCarNode[] | null | undefined): Map<number, string> {
  const out = new Map<number, string>();
  const walk = (n: GroupCarNode) => {
    if (n.type === 'car') out.set(n.id, n.plate || n.name);
    else (n.children ?? []).forEach(walk);
  };
  (src ?? []).forEach(walk);
  return out;
}
