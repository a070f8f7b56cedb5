import { describe, expect, it } from 'vitest';
import { buttonsForPath, hasButton } from './buttonPermission';
import type { AuthNode } from './menuFilter';

const menu: AuthNode[] = [
  {
    name: 'access', code: '06', path: '/access', children: [
      { name: 'userInfo', code: '06-08', path: '/access/userInfo', children: [
        { name: 'userInfo-add', code: '06-08-01' }, { name: 'userInfo-delete', code: '06-08-03' },
      ] },
      { name: 'roleInfo', code: '06-07', path: '/access/roleInfo', children: [] },
    ],
  },
];

describe('buttonsForPath', () => {
  it.each([
    ['/access/userInfo', ['userInfo-add', 'userInfo-delete']],
    ['/access/roleInfo', []],
    ['/nowhere', []],
  ])('%s → %j', (path, want) => {
    expect(buttonsForPath(menu, path)).toEqual(want);
  });
});

describe('hasButton', () => {
  const setMenu = ['userInfo-add', 'userInfo-delete'];
  it.each([
    ['userInfo', 'userInfo-add', true],
    ['userInfo', 'add', true],
    ['userInfo', 'delete', true],
    ['userInfo', 'edit', false],
    ['userInfo', 'userInfo-edit', false],
    ['roleInfo', 'add', false],
    ['userInfo', '', false],
  ])('page %s code %s → %s', (page, code, want) => {
    expect(hasButton(setMenu, page, code)).toBe(want);
  });
});
