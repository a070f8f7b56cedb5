import { describe, expect, it } from 'vitest';
import { parseLiveMessage } from './liveStream';

describe('live tank data', () => {
  it('keeps the tanks array of a delta', () => {
    const m = parseLiveMessage(
      JSON.stringify({
        type: 'delta',
        cars: [],
        counts: { 8: 1 },
        time: '2026-03-01 16:00:00',
        tanks: [{ carId: 5, lockTime: 1, lock: '', seal: 1, levelTime: 2, c: [[1, 750, 4999.6, 5043.1, 215, 1, 4229.5]] }],
      }),
    );
    expect(m?.type).toBe('delta');
    if (m?.type !== 'delta') return;
    expect(m.tanks).toHaveLength(1);
    expect(m.tanks?.[0].c[0][2]).toBe(4999.6);
  });
  it('has no tanks for a map selection', () => {
    const m = parseLiveMessage(JSON.stringify({ type: 'snapshot', cars: [], counts: {}, time: '' }));
    expect(m && 'tanks' in m).toBe(false);
  });
});
