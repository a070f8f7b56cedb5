import type { MappingAlgorithm, ThemeConfig } from 'antd';
import type { ThemeName } from '../api/types';

/** Brand colours per theme; the header is always dark. */
export const BRAND: Record<ThemeName, { primary: string; header: string; accent: string }> = {
  tankcar: { primary: '#1668dc', header: '#0d1b2e', accent: '#4fb3ff' },
  groundtank: { primary: '#0e8a7e', header: '#0c1f1f', accent: '#3cc9b3' },
  escort: { primary: '#2f54eb', header: '#111633', accent: '#85a5ff' },
  telecom: { primary: '#0b7fc2', header: '#0a1a2a', accent: '#36cfc9' },
};

/**
 * antd's theme for a brand; `dark` (antd's dark algorithm, when the user prefers it: darkTheme.ts) leaves
 * the light-only colours (layout grey, white sider, table header) to the algorithm; `reducedMotion` (the
 * system setting: reducedMotion.ts) turns antd's animations off.
 */
export function antdTheme(theme: ThemeName, dark: MappingAlgorithm | null = null, reducedMotion = false): ThemeConfig {
  const b = BRAND[theme] ?? BRAND.tankcar;
  return {
    ...(dark ? { algorithm: dark } : {}),
    token: {
      colorPrimary: b.primary,
      borderRadius: 6,
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif",
      ...(dark ? {} : { colorBgLayout: '#f2f4f7' }),
      ...(reducedMotion ? { motion: false } : {}),
    },
    components: {
      Layout: { headerBg: b.header, ...(dark ? {} : { siderBg: '#ffffff' }), headerHeight: 56, headerPadding: '0 16px' },
      Menu: { itemHeight: 40, itemMarginInline: 6, itemBorderRadius: 6 },
      ...(dark ? {} : { Table: { headerBg: '#f7f8fa' } }),
    },
  };
}

export function themeOf(name: string | undefined | null): ThemeName {
  return name && name in BRAND ? (name as ThemeName) : 'tankcar';
}
