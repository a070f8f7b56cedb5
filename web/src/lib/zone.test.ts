import { afterEach, describe, expect, it } from 'vitest';
import { displayZoneName, setPlatformZone, setUserZone, shiftWall, shiftWalls, wallToMs, zoneTime } from './zone';

describe('zoneTime', () => {
  it('gives Shanghai wall-clock fields whatever the browser zone', () => {
    const at = Date.UTC(2026, 10, 23, 17, 30, 5); // 01:30:05 the next day in Shanghai
    expect(zoneTime(at).format('YYYY-MM-DD HH:mm:ss')).toBe('2026-11-24 01:30:05');
    expect(zoneTime(at).startOf('day').format('YYYY-MM-DD HH:mm:ss')).toBe('2026-11-24 00:00:00');
  });

  it('honours another zone and falls back on unknown names', () => {
    const at = Date.UTC(2026, 0, 1, 0, 0, 0);
    expect(zoneTime(at, 'UTC').format('YYYY-MM-DD HH:mm')).toBe('2026-01-01 00:00');
    expect(zoneTime(at, 'Mars/Olympus').format('HH:mm')).toBe('08:00');
  });
});

describe('the user\'s own zone (D90)', () => {
  afterEach(() => {
    setUserZone(null);
    setPlatformZone(undefined);
  });

  it('shows times in the user\'s zone when set, else the platform\'s; an unknown zone is none', () => {
    const at = Date.UTC(2026, 2, 1, 0, 0, 0); // 08:00 in Shanghai
    expect(displayZoneName()).toBe('Asia/Shanghai');
    expect(zoneTime(at).format('YYYY-MM-DD HH:mm')).toBe('2026-03-01 08:00');
    setUserZone('Europe/Berlin');
    expect(displayZoneName()).toBe('Europe/Berlin');
    expect(zoneTime(at).format('YYYY-MM-DD HH:mm')).toBe('2026-03-01 01:00');
    setUserZone('Mars/Base');
    expect(displayZoneName()).toBe('Asia/Shanghai');
  });

  it('moves wall-clock text between zones, across a daylight-saving change', () => {
    expect(wallToMs('2026-03-01 08:00:00', 'Asia/Shanghai')).toBe(Date.UTC(2026, 2, 1, 0, 0, 0));
    expect(shiftWall('2026-03-01 08:00:00', 'Asia/Shanghai', 'Asia/Tokyo')).toBe('2026-03-01 09:00:00');
    // New York moves to summer time at 02:00 on 8 March 2026
    expect(shiftWall('2026-03-08 12:00:00', 'Asia/Shanghai', 'America/New_York')).toBe('2026-03-07 23:00:00');
    expect(shiftWall('2026-03-08 16:00:00', 'Asia/Shanghai', 'America/New_York')).toBe('2026-03-08 04:00:00');
    expect(shiftWall('2026-03-08 04:00:00', 'America/New_York', 'Asia/Shanghai')).toBe('2026-03-08 16:00:00');
    expect(shiftWall('2026-03-01', 'Asia/Shanghai', 'Asia/Tokyo')).toBe('2026-03-01'); // a day, not an instant
    expect(shiftWall('备注 2026-03-01 08:00:00', 'Asia/Shanghai', 'Asia/Tokyo')).toBe('备注 2026-03-01 08:00:00');
  });

  it('moves every time of a response or request body, and leaves the body alone when the zones agree', () => {
    const body = { list: [{ createdAt: '2026-03-01 08:00:00', day: '2026-03-01', n: 3, ok: true, none: null }], total: 1 };
    expect(shiftWalls(body, 'Asia/Shanghai', 'Asia/Tokyo')).toEqual({ list: [{ createdAt: '2026-03-01 09:00:00', day: '2026-03-01', n: 3, ok: true, none: null }], total: 1 });
    expect(body.list[0].createdAt).toBe('2026-03-01 08:00:00'); // a copy
    expect(shiftWalls(body, 'Asia/Tokyo', 'Asia/Tokyo')).toBe(body);
  });
});
