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
  }, [api]);
  return null;
}

/**
 * The console's own CSS reads antd's colours through these variables (with the light values as
 * fallbacks), so it follows the dark theme; `data-theme` on <html> is there for what a variable
 * cannot say (and for tests), `color-scheme` for the scrollbars and form controls.
 */
function ThemeVars({ dark }: { dark: boolean }) {
  const [, token] = useToken();
  useEffect(() => {
    const el = document.documentElement;
    const vars: Record<string, string> = {
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
    };
    for (const [k, v] of Object.entries(vars)) el.style.setProperty(k, v);
    el.dataset.theme = dark ? 'dark' : 'light';
    el.style.colorScheme = dark ? 'dark' : 'light';
  }, [token, dark]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const lang = useAppStore((s) => s.lang);
  const theme = useAppStore((s) => themeOf(s.session?.theme ?? s.platform?.theme));
  // dark: the user's preference, once the signed-in console has loaded antd's dark algorithm
  const dark = useAppStore((s) => (isDark(prefsOf(s.session)) ? s.darkAlgorithm : null));
  const config = useMemo(() => antdTheme(theme, dark), [theme, dark]);
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
