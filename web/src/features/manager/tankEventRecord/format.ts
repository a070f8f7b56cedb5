import type { TFunction } from 'i18next';
import type { GaugeState, TankEvent } from '../../../api/groundTank';
import { DATE_TIME_FORMAT } from '../../../lib/presets';
import { zoneTime } from '../../../lib/zone';

/** Tag colours of the event kinds: supply green, stock warnings orange, faults red. */
export const KIND_COLORS: Record<string, string> = {
  delivery: 'green',
  lowStock: 'orange',
  lowCover: 'gold',
  water: 'blue',
  gaugeAlarm: 'red',
  leakTest: 'magenta',
  leakFall: 'volcano',
  gaugeOffline: 'default',
};

export const STATE_COLORS: Record<GaugeState, string> = { online: 'success', offline: 'error', garbage: 'warning', none: 'default' };

/** Unix ms as platform wall-clock text; '' for 0. */
export function timeText(ms: number | null | undefined): string {
  return ms ? zoneTime(ms).format(DATE_TIME_FORMAT) : '';
}

/** Litres with thousands separators, no decimals below 100 L of precision need. */
export function litres(v: number): string {
  return Math.round(v).toLocaleString('en-US');
}

/** An event's detail in words of the user's language. */
export function detailText(t: TFunction, ev: TankEvent): string {
  const d = ev.detail ?? {};
  switch (ev.kind) {
    case 'delivery':
      return t('tankEvents.detail.received', { v: litres(d.received ?? ev.afterL - ev.beforeL) });
    case 'lowStock':
      return t('tankEvents.detail.fill', { v: d.fillPct ?? 0 });
    case 'lowCover':
      return t('tankEvents.detail.days', { v: d.days ?? 0 });
    case 'water':
      return t('tankEvents.detail.water', { v: d.waterMm ?? 0 });
    case 'gaugeAlarm':
      return d.alarm ? t(`tankEvents.alarm.${d.alarm}`) : t('tankEvents.alarmCode', { code: d.code ?? 0 });
    case 'leakTest':
    case 'leakFall':
      return t('tankEvents.detail.rate', { rate: d.rateLph ?? 0, hours: d.hours ?? 0 });
    case 'gaugeOffline':
      return [t(`tankEvents.state.${d.state ?? 'offline'}`), d.gauge, d.error].filter(Boolean).join(' · ');
    default:
      return '';
  }
}

/** The trend page of the event's tank at its start (hydtrend2 reads tankId and at). */
export function trendHref(ev: Pick<TankEvent, 'tankId' | 'startAt'>): string {
  return `/manager/hydtrend2?tankId=${ev.tankId}&at=${ev.startAt}`;
}
