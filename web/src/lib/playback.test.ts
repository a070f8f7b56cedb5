import { describe, expect, it } from 'vitest';
import { advance, distanceKm, formatServerTime, fractionAt, hoursMinutes, indexAt, makeTrack, parseServerTime, positionAt, summarize, timeAtFraction, type PlayPoint } from './playback';

const t0 = parseServerTime('2026-11-23 08:00:00');
const pts: PlayPoint[] = [
  { t: t0, lat: 30, lng: 120, speed: 0, direction: 0 },
  { t: t0 + 60_000, lat: 30.01, lng: 120, speed: 36, direction: 0 },
  { t: t0 + 120_000, lat: 30.01, lng: 120.02, speed: 72, direction: 90 },
  { t: t0 + 600_000, lat: 30.01, lng: 120.02, speed: 0, direction: 90 },
];
const track = makeTrack(pts);

describe('playback', () => {
  it('reads and writes server times (Asia/Shanghai)', () => {
    expect(t0).toBe(Date.UTC(2026, 10, 23, 0, 0, 0));
    expect(formatServerTime(t0 + 61_000)).toBe('2026-11-23 08:01:01');
    expect(parseServerTime('2026-11-23T23:59:59')).toBe(Date.UTC(2026, 10, 23, 15, 59, 59));
    expect(Number.isNaN(parseServerTime('yesterday'))).toBe(true);
  });

  it.each([
    [t0 - 1, 0],
    [t0, 0],
    [t0 + 59_999, 0],
    [t0 + 60_000, 1],
    [t0 + 300_000, 2],
    [t0 + 600_000, 3],
    [t0 + 999_999, 3],
  ])('indexAt(%d) = %d', (t, i) => {
    expect(indexAt(pts, t)).toBe(i);
  });

  it('interpolates between reported points and keeps the reported speed and heading', () => {
    const p = positionAt(track, t0 + 90_000)!;
    expect(p.lat).toBeCloseTo(30.01);
    expect(p.lng).toBeCloseTo(120.01);
    expect(p.speed).toBe(36);
    expect(p.index).toBe(1);
    expect(positionAt(track, t0 - 5)).toMatchObject({ lat: 30, lng: 120, index: 0 });
    expect(positionAt(track, t0 + 10_000_000)).toMatchObject({ lat: 30.01, lng: 120.02, index: 3 });
    expect(positionAt(makeTrack([]), t0)).toBeNull();
  });

  it('advances by real time × speed, stops at the end, and may skip stops', () => {
    expect(advance(track, t0, 1000, 60)).toBe(t0 + 60_000);
    expect(advance(track, t0 + 590_000, 1000, 60)).toBe(t0 + 600_000);
    const stops = [{ start: t0 + 120_000, end: t0 + 600_000 }];
    expect(advance(track, t0 + 110_000, 1000, 30, stops, true)).toBe(t0 + 600_000);
    expect(advance(track, t0 + 110_000, 1000, 30, stops, false)).toBe(t0 + 140_000);
  });

  it('maps seek fractions to times and back', () => {
    expect(fractionAt(track, t0 + 300_000)).toBe(0.5);
    expect(timeAtFraction(track, 0.5)).toBe(t0 + 300_000);
    expect(fractionAt(track, t0 - 1)).toBe(0);
    expect(timeAtFraction(track, 2)).toBe(track.end);
    expect(fractionAt(makeTrack([]), 5)).toBe(0);
  });

  it('measures the track', () => {
    expect(distanceKm({ lat: 30, lng: 120 }, { lat: 30.01, lng: 120 })).toBeCloseTo(1.112, 2);
    const s = summarize(pts);
    expect(s.km).toBeCloseTo(1.112 + 1.925, 1);
    expect(s.maxSpeed).toBe(72);
    expect(s.durationMs).toBe(600_000);
    expect(s.movingMs).toBe(540_000);
    expect(hoursMinutes(3_900_000)).toEqual([1, 5]);
  });
});
