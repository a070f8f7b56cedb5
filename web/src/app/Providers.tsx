import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import zhTW from 'antd/es/locale/zh_TW';
import enUS from 'antd/es/locale/en_US';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { feedback } from '../api/feedback';
import type { Lang } from '../i18n';
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

export function Providers({ children }: { children: ReactNode }) {
  const lang = useAppStore((s) => s.lang);
  const theme = useAppStore((s) => themeOf(s.session?.theme ?? s.platform?.theme));
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={ANTD_LOCALE[lang]} theme={antdTheme(theme)}>
        <AntApp>
          <FeedbackBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
