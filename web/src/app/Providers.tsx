import { App as AntApp, ConfigProvider } from 'antd';
import { useToken } from 'antd/es/theme/internal';
import zhCN from 'antd/es/locale/zh_CN';
import zhTW from 'antd/es/locale/zh_TW';
import enUS from 'antd/es/locale/en_US';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode } from 'react';
import { feedback } from '../api/feedback';
import type { Lang } from '../i18n';
import { isDark, prefsOf } from './prefs';
import { useAppStore } from './store';
import { usePrefersReducedMotion } from './reducedMotion';
import { antdTheme, themeOf } from './theme';

const ANTD_LOCALE: Record<Lang, typeof zhCN> = { 'zh-CN': zhCN, 'zh-TW': zhTW, 'en-US': enUS };

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
});

function FeedbackBridge() {
  const api = AntApp.useApp();
  useEffect(() => {
    feedback.message = api.message;
    feedback.modal = api.modal;
    feedback.notification = api.notification;
    // signed out without a reload (an expired token): the login route has no antd to show them
    return () => {
      feedback.message = null;
      feedback.modal = null;
      feedback.notification = null;
    };
  }, [api]);
  return null;
}

/**
 * The console's own CSS reads antd's dark colours through these variables, with the light values it
 * always had as fallbacks: they are set only while the dark theme is on, so the light console stays
 * exactly as it was. `data-theme` on <html> is there for what a variable cannot say (and for tests),
 * `color-scheme` for the scrollbars and native controls.
 */
export const THEME_VARS = [
  '--tw-bg-container',
  '--tw-bg-elevated',
  '--tw-bg-layout',
  '--tw-fill',
  '--tw-fill-quaternary',
  '--tw-border',
  '--tw-border-strong',
  '--tw-text',
  '--tw-text-secondary',
  '--tw-text-tertiary',
  '--tw-text-quaternary',
  '--tw-warning-bg',
  '--tw-warning-border',
  '--tw-primary-bg',
] as const;

function ThemeVars({ dark }: { dark: boolean }) {
  const [, token] = useToken();
  useEffect(() => {
    const el = document.documentElement;
    const values: Record<(typeof THEME_VARS)[number], string> = {
      '--tw-bg-container': token.colorBgContainer,
      '--tw-bg-elevated': token.colorBgElevated,
      '--tw-bg-layout': token.colorBgLayout,
      '--tw-fill': token.colorFillTertiary,
      '--tw-fill-quaternary': token.colorFillQuaternary,
      '--tw-border': token.colorBorderSecondary,
      '--tw-border-strong': token.colorBorder,
      '--tw-text': token.colorText,
      '--tw-text-secondary': token.colorTextSecondary,
      '--tw-text-tertiary': token.colorTextTertiary,
      '--tw-text-quaternary': token.colorTextQuaternary,
      '--tw-warning-bg': token.colorWarningBg,
      '--tw-warning-border': token.colorWarningBorder,
      '--tw-primary-bg': token.colorPrimaryBg,
    };
    for (const k of THEME_VARS) {
      if (dark) el.style.setProperty(k, values[k]);
      else el.style.removeProperty(k);
    }
    el.dataset.theme = dark ? 'dark' : 'light';
    el.style.colorScheme = dark ? 'dark' : '';
  }, [token, dark]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const lang = useAppStore((s) => s.lang);
  const theme = useAppStore((s) => themeOf(s.session?.theme ?? s.platform?.theme));
  // dark: the user's preference, once the signed-in console has loaded antd's dark algorithm
  const dark = useAppStore((s) => (isDark(prefsOf(s.session)) ? s.darkAlgorithm : null));
  const reducedMotion = usePrefersReducedMotion();
  const config = useMemo(() => antdTheme(theme, dark, reducedMotion), [theme, dark, reducedMotion]);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={ANTD_LOCALE[lang]} theme={config}>
        <ThemeVars dark={!!dark} />
        <AntApp>
          <FeedbackBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
