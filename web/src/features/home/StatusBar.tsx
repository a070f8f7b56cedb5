import { Skeleton, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { COUNT_COLORS, share, type Counts } from '../../lib/cockpit';

/** In transit, resting and offline as one bar: a car is in exactly one of them (4 + 5 + 7 = 8). */
export function StatusBar({ counts, loading }: { counts?: Counts; loading: boolean }) {
  const { t } = useTranslation();
  if (loading) return <Skeleton.Input active block size="small" />;
  const total = counts?.['8'] ?? 0;
  if (!counts || !total) return <div className="tw-status-empty">{t('home.noVehicles')}</div>;
  const parts = (['4', '5', '7'] as const).map((code) => ({ code, n: counts[code] ?? 0, pct: share(counts, code) }));
  return (
    <div>
      <div className="tw-status-bar" data-testid="cockpit-bar">
        {parts
          .filter((p) => p.n > 0)
          .map((p) => (
            <Tooltip key={p.code} title={`${t(`home.count.${p.code}`)} ${p.n} (${p.pct}%)`}>
              <div className="tw-status-seg" style={{ flexGrow: p.n, background: COUNT_COLORS[p.code] }} />
            </Tooltip>
          ))}
      </div>
      <div className="tw-status-legend">
        {parts.map((p) => (
          <span key={p.code}>
            <i style={{ background: COUNT_COLORS[p.code] }} />
            {t(`home.count.${p.code}`)} {p.n.toLocaleString()} · {p.pct}%
          </span>
        ))}
        <span>
          <i style={{ background: COUNT_COLORS['3'] }} />
          {t('home.count.3')} {(counts['3'] ?? 0).toLocaleString()} · {share(counts, '3')}%
        </span>
      </div>
    </div>
  );
}
