import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import type { CarChartDTO, TankChartDTO } from '../../../api/trend';
import { tankOption } from '../hydtrend2/option';
import { carOption } from './option';

const t = ((k: string, o?: Record<string, unknown>) => (o ? `${k}:${JSON.stringify(o)}` : k)) as unknown as TFunction;

const car: CarChartDTO = {
  carId: 1, plate: 'A1', start: 0, end: 100_000, bucketMs: 0, gapMs: 900_000,
  compartments: [
    { no: 1, product: 0, capacityL: 0, heightMm: 0, readings: 3, series: { t: [0, 10, 20], v: [[1, 2, 3], [100, null, 300], [99, null, 297], [20, 21, 22]] } },
    { no: 2, product: 0, capacityL: 0, heightMm: 0, readings: 0, series: { t: [], v: [[], [], [], []] } },
  ],
  speed: { t: [0, 10], v: [[0, 50]] },
  valves: [{ t: 5, compartment: 1, kind: 3, prev: 0, state: 1, stationName: '' }],
  events: [{ id: 1, kind: 'theft', compartment: 1, startAt: 15, endAt: null, beforeL: 300, afterL: 100, stationName: '' }],
  fences: [{ t: 7, kind: 'fenceIn', name: 'S' }],
  truncated: false,
};

type S = { name: string; data: unknown[]; xAxisIndex: number; markLine?: unknown };

describe('hydtrend chart option', () => {
  it('draws the chosen value of the shown compartments with gaps, speed and the event band', () => {
    const o = carOption({ overview: car, detail: null, value: 'volume', shown: new Set([1]), view: null, mark: 12, t }) as unknown as { series: S[]; dataZoom: unknown[] };
    const lines = o.series.filter((s) => s.xAxisIndex === 0);
    expect(lines).toHaveLength(1);
    expect(lines[0].data).toEqual([[0, 100], [10, null], [20, 300]]);
    expect(lines[0].markLine).toBeTruthy();
    const speed = o.series.find((s) => s.xAxisIndex === 1)!;
    expect(speed.data).toEqual([[0, 0], [10, 50]]);
    const band = o.series.filter((s) => s.xAxisIndex === 2);
    expect(band.map((s) => (s.data[0] as { value: number[] }).value)).toEqual([[5, 0], [7, 1], [15, 2]]);
    expect(o.dataZoom).toHaveLength(2);
  });

  it('merges a zoomed detail answer inside its window only', () => {
    const detail: CarChartDTO = { ...car, start: 5, end: 15, compartments: [{ ...car.compartments[0], series: { t: [6, 8], v: [[0, 0], [150, 160], [0, 0], [0, 0]] } }] };
    const o = carOption({ overview: car, detail, value: 'volume', shown: new Set([1, 2]), view: { start: 5, end: 15 }, mark: null, t }) as unknown as { series: S[] };
    expect(o.series[0].data).toEqual([[0, 100], [5, null], [6, 150], [8, 160], [15, null], [20, 300]]);
  });
});

describe('hydtrend2 chart option', () => {
  it('shades deliveries and draws the sales rate in its own grid', () => {
    const tank: TankChartDTO = {
      tankId: 1, tankNo: 1, name: 'T', stationId: 1, stationName: 'S', product: 1, capacityL: 30000, heightMm: 2500,
      start: 0, end: 7200_000, bucketMs: 0, salesMs: 3600_000, gapMs: 900_000, readings: 2,
      series: { t: [0, 60_000], v: [[10, 9], [9.9, 8.9], [500, 490], [5, 5], [18, 18]] },
      sales: { t: [1800_000, 5400_000], v: [[600, null]] },
      deliveries: [{ startAt: 1000, endAt: 2000, startL: 10, endL: 20 }], truncated: false,
    };
    const o = tankOption({ overview: tank, detail: null, shown: new Set(['volume', 'water']), view: null, mark: null, t }) as unknown as { series: (S & { markArea?: { data: unknown[] }; yAxisIndex: number })[] };
    const names = o.series.map((s) => s.name);
    expect(names).toEqual(['trend.volume', 'trend.water', 'trend.delivery', 'trend.sales']);
    expect(o.series[1].yAxisIndex).toBe(1);
    expect(o.series[2].markArea!.data).toHaveLength(1);
    expect(o.series[3].data).toEqual([[1800_000, 600], [5400_000, null]]);
  });
});
