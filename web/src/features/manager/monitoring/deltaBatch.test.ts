import { describe, expect, it } from 'vitest';
import type { MapCar } from '../../../api/monitor';
import { DeltaBatch, type MergedDelta } from './deltaBatch';

const car = (carId: number, speed: number): MapCar => ({ carId, speed }) as MapCar;

function setup() {
  const applied: MergedDelta[] = [];
  const frames: (() => void)[] = [];
  const b = new DeltaBatch(
    (d) => applied.push(d),
    (f) => frames.push(f),
  );
  const frame = () => frames.splice(0).forEach((f) => f());
  return { b, applied, frames, frame };
}

describe('DeltaBatch', () => {
  it('applies the deltas of one frame once, newest fields winning', () => {
    const { b, applied, frames, frame } = setup();
    b.add([car(1, 10), car(2, 20)], { all: 5 } as never, 't1');
    b.add([car(1, 30)], { online: 2 } as never, 't2');
    expect(applied).toHaveLength(0);
    expect(frames).toHaveLength(1);
    frame();
    expect(applied).toHaveLength(1);
    expect(applied[0].cars.map((c) => [c.carId, c.speed])).toEqual([
      [1, 30],
      [2, 20],
    ]);
    expect(applied[0].counts).toEqual({ all: 5, online: 2 });
    expect(applied[0].time).toBe('t2');
    b.add([car(3, 1)]);
    frame();
    expect(applied).toHaveLength(2);
    expect(applied[1].cars.map((c) => c.carId)).toEqual([3]);
  });

  it('drops what a snapshot superseded, and its pending frame applies nothing', () => {
    const { b, applied, frame } = setup();
    b.add([car(1, 10)]);
    b.clear();
    frame();
    expect(applied).toHaveLength(0);
    b.add([car(2, 10)]);
    frame();
    expect(applied.map((d) => d.cars.map((c) => c.carId))).toEqual([[2]]);
  });

  it('ignores cars without an id and applies nothing for an empty frame', () => {
    const { b, applied, frame } = setup();
    b.add([{ plate: 'x' } as unknown as MapCar]);
    frame();
    expect(applied).toHaveLength(0);
  });
});
