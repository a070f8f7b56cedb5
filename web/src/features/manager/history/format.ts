import type { TFunction } from 'i18next';
import type { Coord, LevelReading } from '../../../api/history';
import { isValidCoords } from '../../../lib/coords';

/** Pure formatting shared by the history pages (raw data, raw store, sensor, vehicle, state change and offline records). */

/** Message ids offered by the raw-data filter (any other id may be typed in hex). */
export const COMMON_MSG_IDS = ['0x0200', '0x0704', '0x0900', '0x0001', '0x0002', '0x0100', '0x0102', '0x0500', '0x8001', '0x8103', '0x8104', '0x8500', '0x8900', '0x8300'] as const;

/** Reads a message id as the server does: 0x0200, 0200 or 200 (hex, up to 4 digits) → "0x0200"; null when unreadable, '' when empty. */
export function normalizeMsgId(input: string | null | undefined): string | null {
  const s = (input ?? '').trim();
  if (s === '') return '';
  const h = s.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{1,4}$/.test(h)) return null;
  return `0x${h.toUpperCase().padStart(4, '0')}`;
}

/** "lng, lat" with six decimals, '' without a valid position. */
export function coordText(lng: Coord | string | null | undefined, lat: Coord | string | null | undefined): string {
  if (!isValidCoords(lng, lat)) return '';
  return `${Number(lng).toFixed(6)}, ${Number(lat).toFixed(6)}`;
}

/** Load state of the 0x0200 status bits 8–9: empty (00), half (01), full (11); '' for the reserved 10. */
export function loadOf(status: number): 'empty' | 'half' | 'full' | '' {
  switch ((status >>> 8) & 3) {
    case 0:
      return 'empty';
    case 1:
      return 'half';
    case 3:
      return 'full';
  }
  return '';
}

/** One level reading as text: "1: 1500 mm / 12000 L / 21.5 °C" (compartment label translated). */
export function levelText(t: TFunction, l: LevelReading): string {
  return t('history.levelLine', { no: l.compartment, mm: l.levelMm, l: l.volumeL, c: l.temperature.toFixed(1) });
}

/** A duration in minutes: under an hour to a tenth of a minute ("1.5 分钟"), else hours and whole minutes ("2 小时 5 分钟"). */
export function durationText(t: TFunction, minutes: number): string {
  const m = Math.max(0, minutes);
  if (m < 60) return t('history.minutes', { m: Math.round(m * 10) / 10 });
  const whole = Math.floor(m);
  return t('history.hoursMinutes', { h: Math.floor(whole / 60), m: whole % 60 });
}

/** The frame time range of one stored frame: its second and the next (the raw-data call takes whole seconds). */
export function frameSecond(time: string): { startTime: string; endTime: string } {
  const [date, clock] = time.split(' ');
  const [hh, mm, ss] = clock.split(':').map(Number);
  const next = new Date(Date.UTC(2000, 0, 1, hh, mm, ss + 1));
  const pad = (n: number) => String(n).padStart(2, '0');
  // crossing midnight only happens at 23:59:59; then the end is the next day's 00:00:00
  if (next.getUTCDate() !== 1) {
    const d = new Date(`${date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 1);
    return { startTime: time, endTime: `${d.toISOString().slice(0, 10)} 00:00:00` };
  }
  return { startTime: time, endTime: `${date} ${pad(next.getUTCHours())}:${pad(next.getUTCMinutes())}:${pad(next.getUTCSeconds())}` };
}
