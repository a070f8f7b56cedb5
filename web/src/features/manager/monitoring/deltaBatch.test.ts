import { describe, expect, it } from 'vitest';
import type { MapCar } from '../../../api/monitor';
import { DeltaBatch, type MergedDelta } from './deltaBatch';

const car = (carId: number, speed: number): MapCar => ({ carId, speed }) as MapCar;

// A fake clock: frames run when frame() is called; timers when the time is advanced past them; an apply
// "renders" for renderMs (the time moves on in it).
function setup(renderMs = 0) {
  const applied: MergedDelta[] = [];
  const frames: (() => void)[] = [];
  let timers: { at: number; f: () => void }[] = [];
  let t = 0;
  const clock = {
    now: () => t,
    after: (ms: number, f: () => void) => void timers.push({ at: t + ms, f }),
    frame: (f: () => void) => void frames.push(f),
  };
  const b = new DeltaBatch((d) => {
    applied.push(d);
    t += renderMs;
  }, clock);
  const advance = (ms: number) => {
    t += ms;
    const due = timers.filter((x) => x.at <= t);
    timers = timers.filter((x) => x.at > t);
    due.forEach((x) => x.f());
  };
  const frame = () => {
    frames.splice(0).forEach((f) => f());
    advance(0); // the measurement after the render
  };
  return { b, applied, frames, frame, advance };
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

  it('waits after a slow apply as long as it took, then applies what gathered meanwhile', () => {
    const { b, applied, frames, frame, advance } = setup(100);
    b.add([car(1, 1)]);
    frame(); // applied; took 100 ms
    expect(applied).toHaveLength(1);
    b.add([car(2, 2)]);
    b.add([car(3, 3)]);
    expect(frames).toHaveLength(0); // not before another 100 ms
    advance(60);
    expect(frames).toHaveLength(0);
    advance(40);
    expect(frames).toHaveLength(1);
    frame();
    expect(applied.map((d) => d.cars.map((c) => c.carId))).toEqual([[1], [2, 3]]);
  });

  it('applies at once, frame by frame, when applies are quick', () => {
    const { b, applied, frames, frame } = setup(0);
    b.add([car(1, 1)]);
    frame();
    b.add([car(2, 2)]);
    expect(frames).toHaveLength(1);
    frame();
    expect(applied).toHaveLength(2);
  });
});
