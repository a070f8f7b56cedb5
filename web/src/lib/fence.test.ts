import { describe, expect, it } from 'vitest';
import {
  draftOf,
  emptyDraft,
  FENCE_CIRCLE,
  FENCE_POLYGON,
  fenceBody,
  fenceProblem,
  fenceReducer,
  formatPoints,
  parsePoint,
  parsePoints,
  radiusHandle,
  distanceM,
  type FenceAction,
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
