import { describe, expect, it } from 'vitest';
import type { MenuNode } from '../../../api/types';
import { indexTree, resourceCodesOf, toggleCode } from './resourceTree';

const tree: MenuNode[] = [
  { name: 'home', title: '首页', code: '01', children: [] },
  {
    name: 'access', title: '系统设置', code: '06', children: [
      { name: 'operationLog', title: '操作日志', code: '06-03', children: [{ name: 'operationLog-export', title: '导出', code: '06-03-01' }] },
      { name: 'userInfo', title: '用户管理', code: '06-08', children: [
        { name: 'userInfo-add', title: '新增', code: '06-08-01' },
        { name: 'userInfo-edit', title: '编辑', code: '06-08-02' },
      ] },
    ],
  },
];
const idx = indexTree(tree);

describe('role resource tree', () => {
  it.each([
    ['checking a button checks its page and module', [], '06-08-02', true, ['06', '06-08', '06-08-02']],
    ['checking a module checks its whole subtree', [], '06', true, ['06', '06-03', '06-03-01', '06-08', '06-08-01', '06-08-02']],
    ['unchecking a page unchecks its buttons but keeps the module', ['06', '06-08', '06-08-01', '06-03'], '06-08', false, ['06', '06-03']],
    ['unchecking a button keeps its page', ['06', '06-08', '06-08-01', '06-08-02'], '06-08-01', false, ['06', '06-08', '06-08-02']],
    ['a leaf module', ['06'], '01', true, ['01', '06']],
  ])('%s', (_name, checked, code, on, want) => {
    expect(toggleCode(idx, checked, code, on)).toEqual(want);
  });

  it.each([
    ['adds page and module codes of a checked button', ['06-08-01'], ['06', '06-08', '06-08-01']],
    ['adds the module of a checked page', ['06-03', '01'], ['01', '06', '06-03']],
    ['drops codes that are not grantable', ['99-99', '06-03-01'], ['06', '06-03', '06-03-01']],
    ['nothing checked', [], []],
  ])('resourceCodes: %s', (_name, checked, want) => {
    expect(resourceCodesOf(idx, checked)).toEqual(want);
  });
});
