import { describe, expect, it } from 'vitest';
import { axisLabel, mergeDetail, needsRequery, toPoints, windowAround, type Point } from './model';

describe('trend model', () => {
  it('keeps gaps as gaps', () => {
    const pts = toPoints({ t: [1, 2, 3, 4], v: [[10, null, 12, 13]] }, 0);
    expect(pts).toEqual([[1, 10], [2, null], [3, 12], [4, 13]]);
    expect(toPoints({ t: [], v: [[]] }, 0)).toEqual([]);
    expect(toPoints(undefined, 0)).toEqual([]);
    expect(toPoints({ t: [1], v: [[1]] }, 3)).toEqual([]);
  });

  it('merges a detail window into the overview with broken seams', () => {
    const overview: Point[] = [[0, 1], [10, 2], [20, 3], [30, 4]];
    const detail: Point[] = [[11, 5], [15, 6], [19, 7]];
    const out = mergeDetail(overview, detail, { start: 10, end: 20, bucketMs: 0 });
    expect(out).toEqual([[0, 1], [10, null], [11, 5], [15, 6], [19, 7], [20, null], [30, 4]]);
    expect(mergeDetail(overview, null, null)).toBe(overview);
    // an empty detail leaves a hole: the window had no readings
    expect(mergeDetail(overview, [], { start: 5, end: 25, bucketMs: 0 })).toEqual([[0, 1], [30, 4]]);
  });

  it('re-queries only when zooming gains resolution', () => {
    const day = 86400_000;
    const overview = { start: 0, end: 30 * day, bucketMs: 2 * 3600_000 };
    expect(needsRequery({ start: 0, end: 30 * day }, overview, null)).toBe(false);
    expect(needsRequery({ start: 0, end: 20 * day }, overview, null)).toBe(false);
    expect(needsRequery({ start: day, end: 2 * day }, overview, null)).toBe(true);
    // raw overview: nothing to gain
    expect(needsRequery({ start: 1, end: 2 }, { start: 0, end: day, bucketMs: 0 }, null)).toBe(false);
    // the detail already covers the view at its resolution
    const detail = { start: day, end: 2 * day, bucketMs: 5 * 60_000 };
    expect(needsRequery({ start: day + 3600_000, end: 2 * day - 3600_000 }, overview, detail)).toBe(false);
    // zooming further inside the detail gains again
    expect(needsRequery({ start: day, end: day + 3600_000 }, overview, detail)).toBe(true);
    // panning out of the detail asks again
    expect(needsRequery({ start: 3 * day, end: 4 * day }, overview, detail)).toBe(true);
  });

  it('reads the link window', () => {
    expect(windowAround('1000000000000')).toEqual({ start: 1000000000000 - 7200_000, end: 1000000000000 + 7200_000, at: 1000000000000 });
    expect(windowAround(null)).toBeNull();
    expect(windowAround('abc')).toBeNull();
    expect(windowAround('-5')).toBeNull();
  });

  it('labels the axis in Shanghai time', () => {
    const t = Date.UTC(2026, 2, 1, 4, 30, 0); // 12:30 in Shanghai
    expect(axisLabel(t, 3600_000)).toBe('12:30:00');
    expect(axisLabel(t, 2 * 86400_000)).toBe('03-01\n12:30');
    expect(axisLabel(t, 30 * 86400_000)).toBe('03-01\n12:30');
  });
});
