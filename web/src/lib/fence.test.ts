import { describe, expect, it } from 'vitest';
import {
  draftOf,
  emptyDraft,
  FENCE_CIRCLE,
  FENCE_POLYGON,
  fenceBody,
  fenceProblem,
  selfIntersects,
  fenceReducer,
  formatPoints,
  parsePoint,
  parsePoints,
  radiusHandle,
  distanceM,
  type FenceAction,
  type LngLat,
  type FenceDraft,
} from './fence';

describe('fence text', () => {
  it.each([
    ['121.44,31.19', [121.44, 31.19]],
    [' 121.44 , 31.19 ', [121.44, 31.19]],
    ['121.44', null],
    ['181,31', null],
    ['0,0', null],
    ['a,b', null],
    ['', null],
  ])('parsePoint(%j)', (s, want) => expect(parsePoint(s)).toEqual(want));

  it.each([
    ['121,31;121.1,31.1;', [[121, 31], [121.1, 31.1]]],
    ['', []],
    ['121,31;x', null],
  ])('parsePoints(%j)', (s, want) => expect(parsePoints(s)).toEqual(want));

  it('formats with 6 decimals', () => expect(formatPoints([[121, 31], [121.1234567, 31.5]])).toBe('121.000000,31.000000;121.123457,31.500000'));
});

const run = (d: FenceDraft, ...as: FenceAction[]) => as.reduce(fenceReducer, d);

describe('fence editor', () => {
  it('draws a polygon, drags a vertex, undoes and clears', () => {
    let d = run(emptyDraft(), { kind: 'click', at: [121, 31] }, { kind: 'click', at: [121.01, 31] });
    expect(fenceProblem(d)).toBe('station.fenceNeedPoints');
    d = run(d, { kind: 'click', at: [121.01, 31.01] });
    expect(fenceProblem(d)).toBeNull();
    d = run(d, { kind: 'move', index: 2, at: [121.02, 31.02] });
    expect(d.points[2]).toEqual([121.02, 31.02]);
    d = run(d, { kind: 'undo' });
    expect(d.points[2]).toEqual([121.01, 31.01]);
    d = run(d, { kind: 'undo' });
    expect(d.points).toHaveLength(2);
    d = run(d, { kind: 'clear' });
    expect(d.points).toHaveLength(0);
    d = run(d, { kind: 'undo' });
    expect(d.points).toHaveLength(2);
    expect(run(emptyDraft(), { kind: 'undo' })).toEqual(emptyDraft());
  });

  it('a repeated vertex does not count', () => {
    const d = run(emptyDraft(), { kind: 'click', at: [121, 31] }, { kind: 'click', at: [121, 31] }, { kind: 'click', at: [121.01, 31] });
    expect(fenceProblem(d)).toBe('station.fenceNeedPoints');
  });

  it('places a circle, types and drags the radius', () => {
    let d = run(emptyDraft(), { kind: 'type', type: FENCE_CIRCLE });
    expect(fenceProblem(d)).toBe('station.fenceNeedCenter');
    d = run(d, { kind: 'click', at: [121, 31] });
    expect(fenceProblem(d)).toBeNull();
    expect(fenceBody(d)).toEqual({ fenceType: FENCE_CIRCLE, fencePoints: '', fenceCenter: '121.000000,31.000000', raduis: 200 });
    d = run(d, { kind: 'radius', radius: 5 });
    expect(fenceProblem(d)).toBe('station.fenceRadiusRange');
    d = run(d, { kind: 'dragRadius', at: [121, 31.001] });
    expect(d.radius).toBe(111);
    const h = radiusHandle(d)!;
    expect(Math.round(distanceM(d.center!, h))).toBe(111);
    d = run(d, { kind: 'dragRadius', at: [121, 31.0000001] });
    expect(d.radius).toBe(10);
  });

  it('reads a stored station', () => {
    expect(draftOf({ fenceType: 2, fenceCenter: '121,31', raduis: 150 })).toMatchObject({ type: FENCE_CIRCLE, center: [121, 31], radius: 150 });
    const d = draftOf({ fenceType: 1, fencePoints: '121,31;121.1,31;121.1,31.1' });
    expect(d.type).toBe(FENCE_POLYGON);
    expect(fenceBody(d).fencePoints).toBe('121.000000,31.000000;121.100000,31.000000;121.100000,31.100000');
  });
});

// Steps of 0.001° near Shanghai, the cases of the server's TestSelfIntersection (internal/station).
const poly = (...xy: number[]): LngLat[] => {
  const out: LngLat[] = [];
  for (let i = 0; i + 1 < xy.length; i += 2) out.push([121.4 + xy[i] * 0.001, 31.2 + xy[i + 1] * 0.001]);
  return out;
};

describe('selfIntersects', () => {
  it.each([
    ['square', poly(0, 0, 4, 0, 4, 4, 0, 4), false],
    ['concave L', poly(0, 0, 4, 0, 4, 2, 2, 2, 2, 4, 0, 4), false],
    ['arrow', poly(0, 0, 4, 0, 2, 2, 4, 4, 0, 4), false],
    ['straight-through vertex', poly(0, 0, 2, 0, 4, 0, 4, 4, 0, 4), false],
    ['repeated vertex', poly(0, 0, 4, 0, 4, 0, 4, 4, 0, 4), false],
    ['bowtie', poly(0, 0, 4, 4, 4, 0, 0, 4), true],
    ['closing edge crosses', poly(0, 0, 4, 0, 0, 4, 4, 4), true],
    ['vertex touches another edge', poly(0, 0, 6, 0, 6, 6, 3, 0, 0, 6), true],
    ['a vertex on the closing edge', poly(0, 0, 4, 0, 0, 2, 4, 4, 0, 4), true],
    ['pinched figure of eight', poly(0, 0, 2, 2, 4, 0, 4, 4, 2, 2, 0, 4), true],
    ['collinear overlap', poly(0, 0, 4, 0, 4, 1, 3, 1, 3, 0, 1, 0, 1, 1, 0, 1), true],
    ['spike doubling back', poly(0, 0, 4, 0, 2, 0, 2, 3), true],
    ['collinear triangle', poly(0, 0, 1, 0, 2, 0), true],
  ])('%s', (_, ps, want) => expect(selfIntersects(ps)).toBe(want));

  it('is what the form reports for a crossed polygon', () => {
    const d = run(emptyDraft(), ...poly(0, 0, 4, 4, 4, 0, 0, 4).map((at): FenceAction => ({ kind: 'click', at })));
    expect(fenceProblem(d)).toBe('station.fenceSelfIntersect');
    expect(fenceProblem(run(d, { kind: 'move', index: 1, at: poly(4, 0)[0] }, { kind: 'move', index: 2, at: poly(4, 4)[0] }))).toBeNull();
  });
});
