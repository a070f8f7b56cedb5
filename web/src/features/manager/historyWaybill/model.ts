import { fractionAt, type Track } from '../../../lib/playback';
import type { TripStep } from './api';

/** A step's place in degrees: the detail sends degrees; a stored micro-degree value is scaled. 0/0 = none. */
export function stepPlace(s: TripStep): { lat: number; lng: number } | null {
  let { lat, lon } = s;
  if (!lat && !lon) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    lat /= 1e6;
    lon /= 1e6;
  }
  return { lat, lng: lon };
}

/** The slider value (0–steps) of a time on the track, clamped to the track. */
export function sliderAt(track: Track, t: number, steps = 1000): number {
  return Math.round(fractionAt(track, Math.min(track.end, Math.max(track.start, t))) * steps);
}

/** The step the replay is at: the last one at or before t (-1 before the first). */
export function currentStep(steps: readonly TripStep[], t: number): number {
  let at = -1;
  steps.forEach((s, i) => {
    if (s.t <= t) at = i;
  });
  return at;
}

/** The steps in time order (the detail lists them in the order stored). */
export function byTime(steps: readonly TripStep[]): TripStep[] {
  return [...steps].sort((a, b) => a.t - b.t || a.id - b.id);
}

/** The track window of a trip, clamped to the track call's 31 days (the end kept). */
export const MAX_RANGE_MS = 31 * 24 * 3_600_000 - 1000;
export function replayWindow(startAt: number, endAt: number): [number, number] {
  const end = Math.max(endAt, startAt);
  return [Math.max(startAt, end - MAX_RANGE_MS), end];
}
