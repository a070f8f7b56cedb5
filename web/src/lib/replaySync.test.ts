import { describe, expect, it } from 'vitest';
import { spread, startPoint, syncPlan, type SyncTile } from './replaySync';

const T0 = 1_764_000_000_000;
const tile = (key: number, ahead: number | null, over: Partial<SyncTile> = {}): SyncTile => ({
  key,
  position: ahead === null ? null : T0 + ahead,
  running: ahead !== null,
  held: false,
  lastSeekAt: null,
  ...over,
});

describe('syncPlan', () => {
  it('lets tiles within a sixth of a second run at the chosen speed, the slowest being the reference', () => {
    const p = syncPlan([tile(1, 0), tile(2, 100), tile(3, 40)], 1, 0);
    expect(p.reference).toBe(T0);
    expect([...p.actions.values()]).toEqual([{ kind: 'run', rate: 1 }, { kind: 'run', rate: 1 }, { kind: 'run', rate: 1 }]);
  });

  it('slows a tile a little ahead and holds one more than a second ahead', () => {
    const p = syncPlan([tile(1, 0), tile(2, 600), tile(3, 1400)], 1, 0);
    expect(p.actions.get(1)).toEqual({ kind: 'run', rate: 1 });
    expect(p.actions.get(2)).toEqual({ kind: 'run', rate: 0.85 });
    expect(p.actions.get(3)).toEqual({ kind: 'hold' });
  });

  it('keeps a held tile waiting until it is back within the nudge, then lets it run', () => {
    expect(syncPlan([tile(1, 0), tile(2, 600, { held: true })], 1, 0).actions.get(2)).toEqual({ kind: 'hold' });
    expect(syncPlan([tile(1, 0), tile(2, 100, { held: true })], 1, 0).actions.get(2)).toEqual({ kind: 'run', rate: 1 });
  });

  it('seeks a tile far behind the leader past it, by what a restart takes, and not again while it settles', () => {
    const p = syncPlan([tile(1, 0), tile(2, 5000), tile(3, 5200)], 1, 10_000);
    expect(p.actions.get(1)).toEqual({ kind: 'seek', to: T0 + 5200 + 1500 });
    expect(p.reference).toBe(T0 + 5000); // the sought tile is not the reference: the others do not wait for it
    expect(p.actions.get(3)).toEqual({ kind: 'run', rate: 0.85 });
    const again = syncPlan([tile(1, 0, { lastSeekAt: 5000 }), tile(2, 5000)], 1, 10_000);
    expect(again.actions.get(1)).toEqual({ kind: 'run', rate: 1 });
    expect(syncPlan([tile(1, 0, { lastSeekAt: 1000 }), tile(2, 5000)], 1, 10_000).actions.get(1)?.kind).toBe('seek');
  });

  it('leaves tiles that are not running alone and follows the ones that are', () => {
    const p = syncPlan([tile(1, null), tile(2, 2000, { running: false }), tile(3, 900, { held: true })], 1, 0);
    expect(p.actions.has(1)).toBe(false);
    expect(p.actions.has(2)).toBe(false);
    expect(p.actions.get(3)).toEqual({ kind: 'run', rate: 1 }); // alone: nothing to wait for
    expect(p.reference).toBe(T0 + 900);
    expect(syncPlan([tile(1, null)], 1, 0)).toEqual({ reference: null, actions: new Map() });
  });

  it('scales the thresholds and the seek lead with the speed', () => {
    const fast = syncPlan([tile(1, 0), tile(2, 3000), tile(3, 7000)], 8, 0);
    expect(fast.actions.get(2)).toEqual({ kind: 'run', rate: 8 * 0.85 }); // 3 s of media at 8× is under the 4 s hold
    expect(fast.actions.get(3)).toEqual({ kind: 'hold' });
    const lag = syncPlan([tile(1, 0), tile(2, 13_000)], 8, 0);
    expect(lag.actions.get(1)).toEqual({ kind: 'seek', to: T0 + 13_000 + 1500 * 8 });
  });
});

describe('spread and startPoint', () => {
  it('measures the gap between running tiles', () => {
    expect(spread([tile(1, 0), tile(2, 700), tile(3, null), tile(4, 5000, { running: false })])).toBe(700);
    expect(spread([tile(1, 0)])).toBe(0);
  });

  it('starts at the time asked when a recording holds it, else at the next recording', () => {
    const recs = [
      { start: 1000, end: 2000 },
      { start: 3000, end: 4000 },
    ];
    expect(startPoint(recs, 1500, 5000)).toBe(1500);
    expect(startPoint(recs, 2500, 5000)).toBe(3000);
    expect(startPoint(recs, 0, 5000)).toBe(1000);
    expect(startPoint(recs, 4000, 5000)).toBeNull();
    expect(startPoint(recs, 2500, 2800)).toBeNull();
  });
});
