import { beforeEach, describe, expect, it } from 'vitest';
import type { MapCar } from '../../../api/monitor';
import { channelKey, mergeTreeChecks, useMonitorStore } from './store';

const car = (carId: number, extra: Partial<MapCar> = {}): MapCar => ({
  carId,
  plate: `沪A·0000${carId}`,
  lng: 121.47,
  lat: 31.23,
  speed: 0,
  direction: 0,
  code: 5,
  abnormal: false,
  time: '2026-03-01 15:59:59',
  ...extra,
});

const s = () => useMonitorStore.getState();

beforeEach(() => s().reset());

describe('checks (spec §4)', () => {
  it('checking a car adds its id, unchecking removes it', () => {
    s().checkCar(1, true);
    s().checkCar(2, true);
    expect([...s().checkedCarIds]).toEqual([1, 2]);
    s().checkCar(1, false);
    expect([...s().checkedCarIds]).toEqual([2]);
    s().checkCar(1, false);
    expect([...s().checkedCarIds]).toEqual([2]);
  });

  it('checking a group checks its cars; unchecking it removes them', () => {
    s().checkCar(9, true);
    s().checkCars([1, 2, 3], true);
    expect([...s().checkedCarIds].sort()).toEqual([1, 2, 3, 9]);
    s().checkCars([1, 2, 3], false);
    expect([...s().checkedCarIds]).toEqual([9]);
  });

  it('keeps the same set object when nothing changes (no re-render)', () => {
    s().checkCar(1, true);
    const before = s().checkedCarIds;
    s().checkCar(1, true);
    s().applyTreeChecks([1], [1]);
    expect(s().checkedCarIds).toBe(before);
  });

  it('a check in a filtered tree keeps the checks the tree does not show', () => {
    s().setCheckedCars([1, 2, 3]);
    // the tree shows cars 2, 3, 4 (search); the user now has 3 and 4 checked among them
    s().applyTreeChecks([2, 3, 4], [3, 4]);
    expect([...s().checkedCarIds].sort()).toEqual([1, 3, 4]);
    expect([...mergeTreeChecks(new Set([5]), [], [])]).toEqual([5]);
  });

  it('keeps channel checks as keys and as car/channel pairs', () => {
    s().setChannelChecks([channelKey(3, 1), channelKey(3, 2), 'c-3']);
    expect(s().channelCheckList).toEqual(['3-1', '3-2']);
    expect(s().carChannelPairs).toEqual([
      { carId: 3, channelNo: 1 },
      { carId: 3, channelNo: 2 },
    ]);
  });
});

describe('live data', () => {
  it('a snapshot replaces every car and the counts', () => {
    s().applyDelta([car(7)]);
    s().applySnapshot([car(1), car(2)], { '8': 2, '4': 0, '5': 2, '7': 0, '3': 0 }, 't1');
    expect([...s().cars.keys()]).toEqual([1, 2]);
    expect(s().counts['8']).toBe(2);
    expect(s().liveTime).toBe('t1');
    expect(s().loaded).toBe(true);
  });

  it('a delta merges changed cars, adds new ones and keeps the others', () => {
    s().applySnapshot([car(1), car(2)], { '8': 2, '5': 2 });
    const two = s().cars.get(2);
    s().applyDelta([car(1, { speed: 60, code: 4, direction: 90 }), car(3, { lng: '', lat: '' })], { '4': 1, '5': 1, '8': 3 }, 't2');
    expect(s().cars.get(1)).toMatchObject({ speed: 60, code: 4, direction: 90 });
    expect(s().cars.get(2)).toBe(two);
    expect(s().cars.get(3)).toMatchObject({ lng: '', lat: '' });
    expect(s().counts).toEqual({ '8': 3, '4': 1, '5': 1 });
    expect(s().liveTime).toBe('t2');
  });

  it('an empty delta keeps the same car map (no redraw)', () => {
    s().applySnapshot([car(1)]);
    const before = s().cars;
    s().applyDelta([], { '8': 1 });
    expect(s().cars).toBe(before);
  });

  it('resetView clears the choices and keeps the live data', () => {
    s().applySnapshot([car(1)], { '8': 1 });
    s().setCheckedCars([1]);
    s().selectCar(1);
    s().setHeaderCode(4);
    s().setChannelChecks(['1-1']);
    s().setLiveState('open');
    s().resetView();
    expect(s().checkedCarIds.size).toBe(0);
    expect(s().detailCarId).toBeNull();
    expect(s().headerCode).toBeNull();
    expect(s().channelCheckList).toEqual([]);
    expect(s().cars.size).toBe(1);
    expect(s().counts['8']).toBe(1);
    expect(s().liveState).toBe('open');
  });

  it('selecting a car marks its tree node', () => {
    s().selectCar(5);
    expect(s().detailCarId).toBe(5);
    expect(s().treeNodeId).toBe('c-5');
    s().selectCar(null);
    expect(s().detailCarId).toBeNull();
  });
});
