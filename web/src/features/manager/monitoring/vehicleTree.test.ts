import { describe, expect, it } from 'vitest';
import type { GroupCarNode } from '../../../api/group';
import { allCarIds, buildVehicleTree, carIdOfKey, normalisePlate, platesById } from './vehicleTree';

const car = (id: number, plate: string, groupId: number): GroupCarNode => ({ id, name: plate, type: 'car', plate, groupId, children: null });
const group = (id: number, name: string, children: GroupCarNode[]): GroupCarNode => ({ id, name, type: 'group', children });

const src = [
  group(1, '华东能源', [
    group(2, '华北分公司', [car(11, '冀A·10001', 2), car(12, '冀A·10002', 2)]),
    group(3, '华东分公司', [car(21, '沪A·6N337', 3), group(4, '上海车队', [car(22, '沪B·12345', 4)])]),
    group(5, '空分公司', []),
  ]),
];

describe('buildVehicleTree', () => {
  it('shows every group and car without a filter, with counts', () => {
    const t = buildVehicleTree(src);
    expect(t.carIds).toEqual([11, 12, 21, 22]);
    expect(t.groupKeys.sort()).toEqual(['g-1', 'g-2', 'g-3', 'g-4', 'g-5']);
    expect(t.nodes[0].count).toBe(4);
    expect(t.nodes[0].children!.map((c) => [c.name, c.count])).toEqual([
      ['华北分公司', 2],
      ['华东分公司', 2],
      ['空分公司', 0],
    ]);
  });

  it('finds plates ignoring the middle dot and case, keeping the groups above', () => {
    const t = buildVehicleTree(src, { search: '沪a6n' });
    expect(t.carIds).toEqual([21]);
    expect(t.groupKeys.sort()).toEqual(['g-1', 'g-3']);
  });

  it('a group name match shows its cars', () => {
    expect(buildVehicleTree(src, { search: '上海' }).carIds).toEqual([22]);
    expect(buildVehicleTree(src, { search: '华东分公司' }).carIds).toEqual([21, 22]);
  });

  it('filters by status and drops empty groups', () => {
    const moving = new Set([12, 22]);
    const t = buildVehicleTree(src, { match: (id) => moving.has(id) });
    expect(t.carIds).toEqual([12, 22]);
    expect(t.groupKeys).not.toContain('g-5');
    expect(buildVehicleTree(src, { search: 'nothing' }).nodes).toEqual([]);
  });

  it('helpers', () => {
    expect(allCarIds(src)).toEqual([11, 12, 21, 22]);
    expect(platesById(src).get(22)).toBe('沪B·12345');
    expect(carIdOfKey('c-22')).toBe(22);
    expect(carIdOfKey('g-2')).toBeNull();
    expect(normalisePlate(' 沪a·6n 337')).toBe('沪A6N337');
    expect(normalisePlate('沪a・6n．337')).toBe('沪A6N337');
    expect(normalisePlate('沪ａ６Ｎ３３７')).toBe('沪A6N337');
    expect(buildVehicleTree(null).nodes).toEqual([]);
  });
});
