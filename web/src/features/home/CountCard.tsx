import { AlertOutlined, CarOutlined, DisconnectOutlined, PauseCircleOutlined, RightOutlined, SendOutlined } from '@ant-design/icons';
import { Card, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { COUNT_COLORS, share, type CountCode, type Counts } from '../../lib/cockpit';

const ICONS: Record<CountCode, ReactNode> = {
  '8': <CarOutlined />,
  '4': <SendOutlined />,
  '5': <PauseCircleOutlined />,
  '7': <DisconnectOutlined />,
  '3': <AlertOutlined />,
};

/** One count of the cockpit; clickable (opens monitoring2) only when onOpen is given (permission 04-01). */
export function CountCard({ code, counts, loading, failed, onOpen }: { code: CountCode; counts?: Counts; loading: boolean; failed: boolean; onOpen?: () => void }) {
  const { t } = useTranslation();
  const value = counts?.[code];
  const color = COUNT_COLORS[code];
  return (
    <Card
      variant="borderless"
      className={`tw-count-card${onOpen ? ' clickable' : ''}`}
      style={{ ['--tw-count' as string]: color }}
      data-code={code}
      onClick={onOpen}
      role={onOpen ? 'button' : undefined}
      tabIndex={onOpen ? 0 : undefined}
      onKeyDown={onOpen ? (e) => (e.key === 'Enter' || e.key === ' ') && onOpen() : undefined}
    >
      <div className="tw-count-icon">{ICONS[code]}</div>
      <div className="tw-count-body">
        <div className="tw-count-label">{t(`home.count.${code}`)}</div>
        {loading ? (
          <Skeleton.Button active size="small" style={{ width: 64 }} />
        ) : (
          <div className="tw-count-value" data-testid={`count-${code}`}>
            {failed || value === undefined ? '—' : value.toLocaleString()}
          </div>
        )}
        <div className="tw-count-foot">
          {code === '8' || !counts ? t(`home.countHint.${code}`) : t('home.share', { pct: share(counts, code) })}
        </div>
      </div>
      {onOpen && <RightOutlined className="tw-count-go" aria-label={t('home.openMonitoring')} />}
    </Card>
  );
}
