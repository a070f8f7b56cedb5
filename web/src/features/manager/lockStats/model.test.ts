import { describe, expect, it } from 'vitest';
import type { StatRow } from '../../../api/lockStats';
import { chartOption, groupings, rowKey, splitDuration, toStatFilters } from './model';

const row = (p: Partial<StatRow>): StatRow => ({ period: 0, label: '', from: '2026-11-23', to: '2026-11-29', name: '', detail: '', figures: {}, ...p });

describe('lock statistics model', () => {
  it('turns the picker into whole days and drops a blank serial', () => {
    const f = toStatFilters({ range: { preset: 'this_month', start: '2026-11-01', end: '2026-11-26 15:04:05' }, serial: '  ', carId: 4, by: 'group' });
    expect(f).toEqual({ start: '2026-11-01 00:00:00', end: '2026-11-26 23:59:59', carId: 4, by: 'group' });
    expect(toStatFilters({ serial: ' BL1 ' }).serial).toBe('BL1');
  });

  it('splits seconds into hours, minutes and seconds', () => {
    expect(splitDuration(14400)).toEqual({ h: 4, m: 0, s: 0 });
    expect(splitDuration(3725.9)).toEqual({ h: 1, m: 2, s: 5 });
    expect(splitDuration(-3)).toEqual({ h: 0, m: 0, s: 0 });
  });

  it('offers per-lock rows on the per-lock page only', () => {
    expect(groupings('blueLockStat2')).toEqual(['lock']);
    expect(groupings('sealRecordWeekStat')).toEqual(['car', 'group']);
  });

  it('keys rows by period and what they count', () => {
    expect(rowKey(row({ period: 202648, carId: 3 }))).toBe('202648:3::');
    expect(rowKey(row({ serial: 'BL1' }))).not.toBe(rowKey(row({ serial: 'BL2' })));
  });

  it('stacks openings by method and by place per period; the week label loses its days on the axis', () => {
    const chart = [row({ period: 202648, label: '2026-W48 (11-23～11-29)', figures: { openedRemote: 2, openedBle: 1, openedInside: 3 } })];
    const o = chartOption('lock', 'week', chart, [], (k) => k, (s) => s) as {
      xAxis: { data: string[] };
      series: { name: string; stack: string; data: number[] }[];
    };
    expect(o.xAxis.data).toEqual(['2026-W48']);
    expect(o.series.filter((s) => s.stack === 'method').map((s) => s.data[0])).toEqual([2, 1, 0, 0]);
    expect(o.series.filter((s) => s.stack === 'fence').map((s) => s.data[0])).toEqual([3, 0]);
  });

  it('charts the ten most opened locks of the page on the per-lock page', () => {
    const list = Array.from({ length: 12 }, (_, i) => row({ serial: `L${i}`, name: `L${i}`, figures: { opened: i } }));
    const o = chartOption('lock', 'all', [], list, (k) => k, (s) => s) as { xAxis: { data: string[] } };
    expect(o.xAxis.data).toHaveLength(10);
    expect(o.xAxis.data[0]).toBe('L11');
  });
});
