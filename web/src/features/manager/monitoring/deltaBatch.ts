import type { CarCounts, MapCar } from '../../../api/monitor';

/** One merged delta: what the page applies to its store. */
export interface MergedDelta {
  cars: MapCar[];
  counts?: CarCounts;
  time?: string;
}

/**
 * Gathers the live deltas that arrive before the next animation frame into one, so the page merges and
 * redraws at most once a frame however often the server sends. Applying each delta as it came made a
 * busy page fall seconds behind when deltas came 20 times a second (PERFORMANCE.md, D92); gathered,
 * a page that is slow to draw takes more cars per frame instead of queueing frames.
 */
export class DeltaBatch {
  private cars = new Map<number, MapCar>();
  private counts: CarCounts | undefined;
  private time: string | undefined;
  private scheduled = false;
  private generation = 0;

  constructor(
    private readonly apply: (d: MergedDelta) => void,
    private readonly schedule: (f: () => void) => void = (f) => requestAnimationFrame(() => f()),
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
    this.schedule(() => {
      if (gen !== this.generation) return; // cleared meanwhile (a snapshot replaced everything)
      this.flush();
    });
  }

  /** Applies what is gathered now. */
  flush(): void {
    this.scheduled = false;
    if (this.cars.size === 0 && !this.counts && this.time === undefined) return;
    const d: MergedDelta = { cars: [...this.cars.values()], counts: this.counts, time: this.time };
    this.reset();
    this.apply(d);
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
