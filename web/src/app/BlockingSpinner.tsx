import { Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from './store';

/** Spec §7: a blocking 'processing...' spinner while requests pend (after 300 ms, so quick calls don't flash). */
export function BlockingSpinner() {
  const pending = useAppStore((s) => s.pending);
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (pending === 0) {
      const h = window.setTimeout(() => setVisible(false), 0);
      return () => window.clearTimeout(h);
    }
    const h = window.setTimeout(() => setVisible(true), 300);
    return () => window.clearTimeout(h);
  }, [pending]);
  if (!visible) return null;
  return (
    <div className="tw-blocking" role="progressbar" aria-label={t('common.processing')}>
      <Spin size="large" tip={t('common.processing')}>
        <div style={{ width: 160, height: 80 }} />
      </Spin>
    </div>
  );
}
