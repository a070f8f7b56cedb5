import darkAlgorithm from 'antd/es/theme/themes/dark';
import { describe, expect, it } from 'vitest';
import type { UserPrefs } from '../api/types';
import { isDark, mapLayerOf, NO_PREFS, pageSizeOf, prefsOf, sessionLang, themedOption } from './prefs';
import { antdTheme } from './theme';

const prefs = (p: Partial<UserPrefs>): UserPrefs => ({ ...NO_PREFS, ...p });

describe('console preferences (issue 18)', () => {
  it.each([
    [undefined, NO_PREFS],
    [null, NO_PREFS],
    [{}, NO_PREFS],
    [{ prefs: { theme: 'dark', mapLayer: 'satellite', pageSize: 50 } }, { theme: 'dark', mapLayer: 'satellite', pageSize: 50 }],
    // an unknown value is the default, the others stay
    [{ prefs: { theme: 'sepia', mapLayer: 'normal', pageSize: 30 } }, { theme: '', mapLayer: 'normal', pageSize: 0 }],
  ])('prefsOf(%j) = %j', (session, want) => {
    expect(prefsOf(session as Parameters<typeof prefsOf>[0])).toEqual(want);
  });

  it.each([
    [0, 10],
    [10, 10],
    [20, 20],
    [100, 100],
  ] as const)('page size %i → lists show %i a page', (pageSize, want) => {
    expect(pageSizeOf(prefs({ pageSize }))).toBe(want);
  });

  it.each([
    ['', false],
    ['light', false],
    ['dark', true],
  ] as const)('theme %j is dark: %s', (theme, dark) => {
    expect(isDark(prefs({ theme }))).toBe(dark);
  });

  it.each([
    ['', 'normal'],
    ['normal', 'normal'],
    ['satellite', 'satellite'],
  ] as const)('map layer %j → maps open on %s', (mapLayer, want) => {
    expect(mapLayerOf(prefs({ mapLayer }))).toBe(want);
  });

  it.each([
    [{ language: 'en-US' }, 'en-US'],
    [{ language: 'zh-TW' }, 'zh-TW'],
    [{ language: '' }, null],
    [{ language: 'fr-FR' }, null],
    [{}, null],
    [null, null],
  ])('the session language of %j is %s', (session, want) => {
    expect(sessionLang(session)).toBe(want);
  });

  it('dark adds antd’s dark algorithm and drops the light-only colours; light is the theme it always was', () => {
    const light = antdTheme('tankcar');
    expect(light.algorithm).toBeUndefined();
    expect(light.token?.colorBgLayout).toBe('#f2f4f7');
    expect(light.components?.Table).toEqual({ headerBg: '#f7f8fa' });
    const dark = antdTheme('tankcar', darkAlgorithm);
    expect(dark.algorithm).toBe(darkAlgorithm);
    expect(dark.token?.colorBgLayout).toBeUndefined();
    expect(dark.token?.colorPrimary).toBe(light.token?.colorPrimary);
    expect(dark.components?.Layout?.siderBg).toBeUndefined();
    expect(dark.components?.Table).toBeUndefined();
    expect(dark.components?.Layout?.headerBg).toBe(light.components?.Layout?.headerBg);
  });
});

describe('chart theme', () => {
  it('keeps the card background on dark charts and leaves light options alone', () => {
    const option = { series: [] };
    expect(themedOption(option, undefined)).toBe(option);
    expect(themedOption(option, 'dark')).toEqual({ backgroundColor: 'transparent', series: [] });
    expect(themedOption({ backgroundColor: '#fff' }, 'dark')).toEqual({ backgroundColor: '#fff' });
  });
});
