import type { CarCounts, MapCar } from '../../../api/monitor';

/** One merged delta: what the page applies to its store. */
export interface MergedDelta {
  cars: MapCar[];
  counts?: CarCounts;
  time?: string;
}

/** The timing DeltaBatch needs; the browser's by default, a fake one in tests. */
export interface BatchClock {
  now(): number;
  /** runs f after ms (0: after the current task and its microtasks, where React renders) */
  after(ms: number, f: () => void): void;
  /** runs f before the next paint */
  frame(f: () => void): void;
}

const browserClock: BatchClock = {
  now: () => performance.now(),
  after: (ms, f) => void setTimeout(f, ms),
  frame: (f) => void requestAnimationFrame(() => f()),
};

/**
 * Gathers live deltas and applies them together before a paint, at a pace the page can follow: after
 * an apply that took d ms (the store's merge and React's render after it), the next waits at least
 * d ms more, so live updates take at most about half of the page's main thread. Applying every delta
 * as it came made the page fall seconds behind when deltas came 20 times a second (PERFORMANCE.md,
 * D92); gathered, a page that is slow to draw takes more cars per apply instead of queueing applies,
 * and a quick one draws each delta as it comes.
 */
export class DeltaBatch {
  private cars = new Map<number, MapCar>();
  private counts: CarCounts | undefined;
  private time: string | undefined;
  private scheduled = false;
  private generation = 0;
  private nextAt = 0;

  constructor(
    private readonly apply: (d: MergedDelta) => void,
    private readonly clock: BatchClock = browserClock,
  ) {}

  /** Adds one delta; a car in several deltas keeps its newest fields (as the store's merge does). */
  add(cars: readonly MapCar[], counts?: CarCounts, time?: string): void {
    for (const c of cars) {
      if (typeof c?.carId !== 'number') continue;
      const old = this.cars.get(c.carId);
      this.cars.set(c.carId, old ? { ...old, ...c } : c);
    }
    if (counts) this.counts = { ...this.counts, ...counts };
    if (time !== undefined) this.time = time;
    if (this.scheduled) return;
    this.scheduled = true;
    const gen = this.generation;
    const go = () =>
      this.clock.frame(() => {
        if (gen === this.generation) this.flush(); // else cleared meanwhile (a snapshot replaced everything)
      });
    const wait = this.nextAt - this.clock.now();
    if (wait > 0) this.clock.after(wait, go);
    else go();
  }

  /** Applies what is gathered now. */
  flush(): void {
    this.scheduled = false;
    if (this.cars.size === 0 && !this.counts && this.time === undefined) return;
    const d: MergedDelta = { cars: [...this.cars.values()], counts: this.counts, time: this.time };
    this.reset();
    const start = this.clock.now();
    this.apply(d);
    this.clock.after(0, () => {
      const end = this.clock.now();
      this.nextAt = end + (end - start);
    });
  }

  /** Drops what is gathered (a snapshot supersedes it; the page closes). */
  clear(): void {
    this.generation++;
    this.scheduled = false;
    this.reset();
  }

  private reset(): void {
    this.cars = new Map();
    this.counts = undefined;
    this.time = undefined;
  }
}
