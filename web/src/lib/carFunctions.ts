import type { CarFunctions } from '../api/equipment';
import type { VideoChannel } from '../api/fleet';

/** What the console shows for a car. */
export interface CarActions {
  video: boolean;
  locks: boolean;
  /** No model known (or the functions could not be read): everything is shown, as before models existed. */
  unknown: boolean;
}

/** The actions shown for a car: what its models offer, or everything when no model is known. */
export function carActions(f: CarFunctions | undefined | null): CarActions {
  if (!f || !f.known) return { video: true, locks: true, unknown: true };
  return { video: f.showVideo, locks: f.showLocks, unknown: false };
}

/**
 * The video channels a car's models offer (1..n, named from the model, the terminal's number when the
 * model names none), or null when they are what the car already has (nothing to offer).
 */
export function channelsToOffer(f: CarFunctions | undefined | null, current: readonly VideoChannel[]): VideoChannel[] | null {
  if (!f || !f.known || f.videoChannels <= 0) return null;
  const want: VideoChannel[] = Array.from({ length: f.videoChannels }, (_, i) => ({ channelNo: i + 1, name: f.channelNames[i] ?? '', enabled: true }));
  const same =
    want.length === current.length &&
    want.every((w) => {
      const c = current.find((x) => x.channelNo === w.channelNo);
      return !!c && (w.name === '' || c.name === w.name);
    });
  return same ? null : want;
}
