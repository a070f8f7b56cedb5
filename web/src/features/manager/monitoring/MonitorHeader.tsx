import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LiveState } from '../../../api/liveStream';
import { BrandLogo } from '../../../components/BrandLogo';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { useAppStore } from '../../../app/store';
import { themeOf } from '../../../app/theme';
import { COUNT_CODES, countCodeColor, type CountCode } from '../../../lib/vehicleColors';
import { useMonitorStore } from './store';

const LIVE_COLOR: Record<LiveState, string> = {
  idle: '#8c8c8c',
  connecting: '#faad14',
  open: '#52c41a',
  reconnecting: '#faad14',
  unauthorized: '#ff4d4f',
  forbidden: '#ff4d4f',
  closed: '#8c8c8c',
};

/** Connection state of the live stream: a dot and a word; the tooltip says what it means. */
export function LiveIndicator() {
  const { t } = useTranslation();
  const state = useMonitorStore((s) => s.liveState);
  const time = useMonitorStore((s) => s.liveTime);
  return (
    <Tooltip title={t(`monitor.liveHint.${state}`) + (time ? ` · ${t('monitor.updatedAt', { time })}` : '')}>
      <span className={`tw-live tw-live-${state}`} data-testid="live-state" data-state={state}>
        <span className="tw-live-dot" style={{ background: LIVE_COLOR[state] }} />
        {t(`monitor.live.${state}`)}
      </span>
    </Tooltip>
  );
}

/** The five count chips: clicking one filters the vehicle tree by its code (again: back to all). */
export function CountChips() {
  const { t } = useTranslation();
  const counts = useMonitorStore((s) => s.counts);
  const loaded = useMonitorStore((s) => s.loaded);
  const active = useMonitorStore((s) => s.headerCode);
  const setCode = useMonitorStore((s) => s.setHeaderCode);
  const pick = (code: CountCode) => setCode(active === code || code === 8 ? null : code);
  return (
    <div className="tw-chips" role="group" aria-label={t('monitor.statusFilter')} data-testid="count-chips">
      {COUNT_CODES.map((code) => {
        const n = counts[String(code) as keyof typeof counts];
        const on = active === code || (code === 8 && active == null);
        return (
          <button
            key={code}
            type="button"
            className={`tw-chip${on ? ' active' : ''}`}
            style={{ ['--tw-chip' as string]: countCodeColor(code) }}
            aria-pressed={on}
            data-testid={`count-chip-${code}`}
            data-code={code}
            onClick={() => pick(code)}
          >
            <span className="tw-chip-label">{t(`home.count.${code}`)}</span>
            <span className="tw-chip-value">{n === undefined ? (loaded ? '0' : '—') : n.toLocaleString()}</span>
          </button>
        );
      })}
    </div>
  );
}

/** Compact header of the full-screen monitoring pages; `tools` go before the live indicator (layer switches). */
export function MonitorHeader({ title, tools }: { title: string; tools?: ReactNode }) {
  const { t } = useTranslation();
  const session = useAppStore((s) => s.session);
  const platform = useAppStore((s) => s.platform);
  const theme = themeOf(session?.theme ?? platform?.theme);
  const brand = session?.indexTitle || t(`theme.${theme}.title`);
  const logo = session?.indexLogo || platform?.indexLogo || `/themes/${theme}/logo.svg`;
  return (
    <header className="tw-monitor-header" data-testid="monitor-header">
      <Link to="/home" className="tw-monitor-back" data-testid="monitor-back">
        <Button type="text" size="small" icon={<ArrowLeftOutlined />} className="tw-header-btn">
          {t('monitor.backToConsole')}
        </Button>
      </Link>
      <span className="tw-monitor-logo">
        <BrandLogo src={logo} size={26} alt={brand} />
      </span>
      <h1 className="tw-monitor-title" data-testid="monitor-title">
        {title}
      </h1>
      <CountChips />
      <span className="tw-monitor-tools">
        {tools}
        <LiveIndicator />
        <LanguageSwitch dark />
      </span>
    </header>
  );
}
