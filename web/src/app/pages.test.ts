import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import zhCN from '../i18n/zh-CN.json';
import { filterMenu } from '../lib/menuFilter';
import { allPages, isPagePermitted, MODULES, pageByPath } from './pages';

interface Node {
  name: string;
  code: string;
  path?: string;
  href?: string;
  allScreen?: boolean;
  children?: Node[];
}

const menu = JSON.parse(readFileSync(resolve(__dirname, '../../../internal/org/menu.json'), 'utf8')) as Node[];

function walk(nodes: Node[], out: Node[] = []): Node[] {
  for (const n of nodes) {
    out.push(n);
    walk(n.children ?? [], out);
  }
  return out;
}

const menuKeys = zhCN.menu as Record<string, string>;

describe('every menu.json node', () => {
  const nodes = walk(menu);
  it.each(nodes.map((n) => [n.name, n]))('%s has a menu.<name> key and a route (or is a button / external link)', (_name, n) => {
    expect(menuKeys[n.name], `menu.${n.name}`).toBeTruthy();
    if (n.href) {
      expect(n.name).toBe('supplyChain');
      expect(MODULES.find((m) => m.name === n.name)?.href).toBe(true);
      return;
    }
    if (n.code.length > 5) return; // a button: permission only
    const page = pageByPath(n.path!);
    if ((n.children ?? []).some((c) => c.code.length <= 5)) {
      // a module
      expect(MODULES.find((m) => m.name === n.name)?.path).toBe(n.path);
      return;
    }
    expect(page, n.path).toBeDefined();
    expect(page!.name).toBe(n.name);
    expect(!!page!.allScreen).toBe(!!n.allScreen);
  });

  it('no route names a page menu.json lacks (apart from rePassword and errorLog)', () => {
    const names = new Set(nodes.map((n) => n.name));
    const extra = allPages().map((p) => p.name).filter((n) => !names.has(n));
    expect(extra.sort()).toEqual(['errorLog', 'rePassword']);
  });
});

describe('isPagePermitted (a page opened by URL outside the role)', () => {
  const dispatcher = filterMenu(MODULES, [
    { name: 'home', children: [] },
    { name: 'police', children: [{ name: 'policeMsg', code: '02-06' }, { name: 'policeMsg-export', code: '02-06-01' }] },
  ]);
  const page = (path: string) => pageByPath(path)!;
  it.each([
    ['/home', true],
    ['/police/policeMsg', true],
    ['/rePassword', true],
    ['/errorLog', true],
    ['/police/policeType', false],
    ['/access/userInfo', false],
    ['/manager/monitoring', false],
    ['/faultRecord', false],
  ])('%s → %s', (path, want) => {
    expect(isPagePermitted(page(path), dispatcher)).toBe(want);
  });
  it('nothing but the header pages without a menu', () => {
    expect(isPagePermitted(page('/home'), [])).toBe(false);
    expect(isPagePermitted(page('/rePassword'), [])).toBe(true);
  });
});
