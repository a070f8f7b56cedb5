import { CheckOutlined, LockOutlined, MinusOutlined, UnlockOutlined, WarningOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TankCompartment, TankDevice } from '../../../api/tankMonitor';
import { deviceState, figure, fillFraction, liquidRect, SECTION, type DeviceStateName } from './tankDraw';

const STATE_ICON: Record<DeviceStateName, React.ReactNode> = {
  notFitted: <MinusOutlined />,
  fault: <WarningOutlined />,
  open: <UnlockOutlined />,
  locked: <LockOutlined />,
  closed: <CheckOutlined />,
};

/** One device: an icon whose shape says the state, the state in words, the kind as the label. */
export function DeviceBadge({ d }: { d: TankDevice }) {
  const { t } = useTranslation();
  const s = deviceState(d);
  return (
    <div className={`tw-tank-device tw-tank-device-${s}`} data-testid={`device-${d.kind}`} data-state={s}>
      <span className="tw-tank-device-icon" aria-hidden>
        {STATE_ICON[s]}
      </span>
      <span className="tw-tank-device-kind" title={t(`tankMonitor.kind.${d.kind}`)}>
        {t(`tankMonitor.kind.${d.kind}`)}
      </span>
      <span className="tw-tank-device-state">{t(`tankMonitor.state.${s}`)}</span>
    </div>
  );
}

/** A compartment drawn as its end view with the liquid at its level, its figures and its four devices. */
export function TankSection({ c, onUse }: { c: TankCompartment; onUse?: (c: TankCompartment) => void }) {
  const { t } = useTranslation();
  const clip = useId();
  const f = fillFraction(c);
  const liquid = liquidRect(f);
  const { width: W, height: H, pad } = SECTION;
  return (
    <div className="tw-tank-section" data-testid={`compartment-${c.no}`}>
      <div className="tw-tank-section-head">
        <strong>{t('tankMonitor.compartmentNo', { no: c.no })}</strong>
        <span className="tw-tank-product">{c.productName || t('tankMonitor.unlisted')}</span>
        {c.hasReading && (
          <Tag color={c.source === 1 ? 'blue' : 'default'} data-testid="source">
            {c.source === 1 ? t('tankMonitor.source.table') : t('tankMonitor.source.probe')}
          </Tag>
        )}
      </div>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={t('tankMonitor.drawing', { no: c.no, pct: f == null ? '—' : Math.round(f * 100) })}>
        <defs>
          <clipPath id={clip}>
            <ellipse cx={W / 2} cy={H / 2} rx={W / 2 - pad} ry={H / 2 - pad} />
          </clipPath>
        </defs>
        <ellipse cx={W / 2} cy={H / 2} rx={W / 2 - pad} ry={H / 2 - pad} className="tw-tank-shell" />
        {liquid.height > 0 && <rect {...liquid} clipPath={`url(#${clip})`} className={`tw-tank-liquid tw-tank-liquid-p${c.product}`} />}
        <ellipse cx={W / 2} cy={H / 2} rx={W / 2 - pad} ry={H / 2 - pad} className="tw-tank-outline" />
        <text x={W / 2} y={H / 2 + 6} textAnchor="middle" className="tw-tank-pct">
          {f == null ? '—' : `${c.fillPct != null ? Math.round(c.fillPct) : Math.round(f * 100)}%`}
        </text>
      </svg>
      {c.hasReading && f == null && <div className="tw-tank-hint">{t('tankMonitor.notDrawn')}</div>}
      <dl className="tw-tank-figures">
        <dt>{t('tankMonitor.level')}</dt>
        <dd data-testid="level">{c.hasReading ? `${c.levelMm} mm` : '—'}</dd>
        <dt>{t('tankMonitor.volume')}</dt>
        <dd data-testid="volume">{c.hasReading ? `${figure(c, c.volume)} L` : '—'}</dd>
        <dt>{t('tankMonitor.v20')}</dt>
        {/* an unregistered compartment has no product: no V20 (the server's V20 then equals Vt) */}
        <dd>{c.hasReading && c.listed ? `${figure(c, c.v20)} L` : '—'}</dd>
        <dt>{t('tankMonitor.mass')}</dt>
        <dd>{c.hasReading && c.massKg > 0 ? `${figure(c, c.massKg)} kg` : '—'}</dd>
        <dt>{t('tankMonitor.temperature')}</dt>
        <dd>{c.hasReading ? `${c.temperature.toFixed(1)} °C` : '—'}</dd>
        <dt>{t('tankMonitor.capacity')}</dt>
        <dd>
          {c.capacity > 0 ? (
            <Tooltip title={c.capacitySource ? t(`tankMonitor.capacityFrom.${c.capacitySource}`) : undefined}>
              {figure({ hasReading: true }, c.capacity, 0)} L
            </Tooltip>
          ) : (
            '—'
          )}
        </dd>
      </dl>
      <div className="tw-tank-devices">
        {c.devices.map((d) => (
          <DeviceBadge key={d.kind} d={d} />
        ))}
      </div>
      {onUse && c.hasReading && (
        <a className="tw-tank-use" onClick={() => onUse(c)} data-testid="use-for-v20">
          {t('tankMonitor.useForV20')}
        </a>
      )}
    </div>
  );
}
