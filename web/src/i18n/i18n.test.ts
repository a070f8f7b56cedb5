import { describe, expect, it } from 'vitest';
import zhCN from './zh-CN.json';
import zhTW from './zh-TW.json';
import enUS from './en-US.json';
import { browserLang } from './index';

function keys(o: unknown, prefix = ''): string[] {
  return Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

function leaves(o: unknown): [string, string][] {
  return keys(o).map((k) => [k, k.split('.').reduce<unknown>((x, p) => (x as Record<string, unknown>)[p], o) as string]);
}

describe('i18n files', () => {
  it('have identical key sets', () => {
    const a = keys(zhCN).sort();
    expect(keys(zhTW).sort()).toEqual(a);
    expect(keys(enUS).sort()).toEqual(a);
  });

  it('English has no Chinese characters (except the language switch labels)', () => {
    const bad = leaves(enUS).filter(([k, v]) => !k.startsWith('lang.') && /[\u4e00-\u9fff]/.test(v));
    expect(bad).toEqual([]);
  });

  it('uses the spec texts verbatim in zh-CN', () => {
    expect(zhCN.shell.closeConfirm).toBe('确定要关闭这一页吗');
    expect(zhCN.auth.noPermission).toBe('当前用户未设置权限');
    expect(zhCN.shell.systemInfo).toBe('系统信息');
    expect(zhCN.shell.helpMessage).toBe('求助消息');
    expect(zhCN.common.prompt).toBe('提示');
    expect(zhCN.common.operationSuccess).toBe('操作成功');
    expect(zhCN.common.deleteSuccess).toBe('删除成功');
    expect(zhCN.common.retry).toBe('请重新操作');
    expect(zhCN.common.addSuccess).toBe('添加成功');
    expect(zhCN.common.notLocated).toBe('未定位');
    expect(zhCN.common.confirmDelete).toBe('确定要删除该数据吗？');
  });

  it('language labels stay in their own language', () => {
    for (const f of [zhCN, zhTW, enUS]) expect([f.lang['zh-CN'], f.lang['zh-TW'], f.lang['en-US']]).toEqual(['简体中文', '繁體中文', 'English']);
  });

  it.each([
    ['en-US', 'en-US'], ['en', 'en-US'], ['en-GB', 'en-US'], ['zh-CN', 'zh-CN'], ['zh-TW', 'zh-CN'], ['de-DE', 'zh-CN'], ['', 'zh-CN'],
  ])('browser language %s → %s', (nav, want) => {
    expect(browserLang(nav)).toBe(want);
  });
});
