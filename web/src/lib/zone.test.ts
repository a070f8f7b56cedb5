import { describe, expect, it } from 'vitest';
import { zoneTime } from './zone';

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
