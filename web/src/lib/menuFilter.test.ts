import { describe, expect, it } from 'vitest';
import { filterMenu, NO_PERMISSION, type AuthNode } from './menuFilter';

const local = [
  { name: 'home', children: [] },
  { name: 'manager', children: [{ name: 'monitoring' }, { name: 'carRecord' }, { name: 'report' }] },
  { name: 'access', children: [{ name: 'userInfo' }, { name: 'roleInfo' }] },
];

describe('filterMenu (spec §6)', () => {
  const cases: { name: string; auth: AuthNode[]; want: Record<string, string[]> }[] = [
    { name: 'nothing authorised', auth: [], want: {} },
    { name: 'top level without children', auth: [{ name: 'home', code: '01' }], want: { home: [] } },
    {
      name: 'children must be authorised under the same parent',
      auth: [
        { name: 'manager', code: '04', children: [{ name: 'monitoring', code: '04-01' }, { name: 'userInfo', code: '06-08' }] },
        { name: 'access', code: '06', children: [{ name: 'carRecord', code: '04-09' }] },
      ],
      want: { manager: ['monitoring'], access: [] },
    },
    {
      name: 'child codes longer than 5 characters are dropped',
      auth: [{ name: 'manager', code: '04', children: [{ name: 'carRecord', code: '04-09-01' }, { name: 'report', code: '04-20' }] }],
      want: { manager: ['report'] },
    },
    { name: 'unknown authorised items are ignored', auth: [{ name: 'ghost', code: '99' }], want: {} },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = Object.fromEntries(filterMenu(local, c.auth).map((m) => [m.name, (m.children ?? []).map((x) => x.name)]));
      expect(got).toEqual(c.want);
    });
  }
  it('null menu is an error with the spec text', () => {
    expect(() => filterMenu(local, null)).toThrow(NO_PERMISSION);
    expect(NO_PERMISSION).toBe('当前用户未设置权限');
  });
});
