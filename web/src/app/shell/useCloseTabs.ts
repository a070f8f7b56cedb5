import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { pageByPath } from '../pages';
import { useAppStore } from '../store';

export const HOME_TAB = '/home';

/**
 * Closing tabs. A page whose route metadata has `beforeCloseConfirm` asks '确定要关闭这一页吗' and
 * closes only on OK. Home is the fixed first tab and never closes.
 */
export function useCloseTabs() {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();

  return useCallback(
    (keys: string[]) => {
      const closable = keys.filter((k) => k !== HOME_TAB);
      if (closable.length === 0) return;
      const doClose = () => {
        const { tabs, closeTabs } = useAppStore.getState();
        const current = location.pathname;
        closeTabs(closable);
        if (closable.includes(current)) {
          const idx = tabs.findIndex((x) => x.key === current);
          const remaining = tabs.filter((x) => !closable.includes(x.key));
          const next = remaining[Math.min(idx, remaining.length - 1)] ?? remaining[remaining.length - 1];
          navigate(next ? next.to : HOME_TAB);
        }
      };
      if (closable.some((k) => pageByPath(k)?.beforeCloseConfirm)) {
        modal.confirm({
          title: t('common.prompt'),
          content: t('shell.closeConfirm'),
          okText: t('common.ok'),
          cancelText: t('common.cancel'),
          onOk: doClose,
        });
      } else doClose();
    },
    [modal, t, navigate, location.pathname],
  );
}
