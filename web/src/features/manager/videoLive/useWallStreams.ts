import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { stopLiveVideo, stopLiveVideos, type LiveStreamInfo } from '../../../api/video';
import { carBatches, MAX_TILES, sameTarget, type TileTarget } from './logic';

/** How long a closed tile's socket is given to close before its stream is stopped (the server keeps a watched stream). */
const STOP_AFTER_MS = 300;

/**
 * The streams of a video wall (videoLive, videoMonitor): a stream the wall no longer shows is stopped
 * once its tile's socket has closed; leaving the page stops every car's streams the page opened
 * (stopLiveVideos; the server keeps those someone else still watches); the speaker is on one tile at a
 * time.
 */
export function useWallStreams() {
  const openedCars = useRef(new Set<number>());
  const [audioTile, setAudioTile] = useState<number | null>(null);

  const stopLater = useCallback((specs: readonly TileTarget[], still: readonly (TileTarget | null)[]) => {
    const gone = specs.filter((s) => !still.some((x) => sameTarget(x, s)));
    if (gone.length === 0) return;
    setTimeout(() => gone.forEach((s) => void stopLiveVideo(s.carId, s.channelNo).catch(() => undefined)), STOP_AFTER_MS);
  }, []);

  // leaving the page: the tiles' players are destroyed by their own cleanup; then the streams the page
  // opened are stopped
  useEffect(() => {
    const opened = openedCars.current;
    return () => {
      const batches = carBatches(opened);
      if (batches.length) setTimeout(() => batches.forEach((b) => void stopLiveVideos(b).catch(() => undefined)), STOP_AFTER_MS);
    };
  }, []);

  const onOpened = useCallback((s: LiveStreamInfo) => {
    openedCars.current.add(s.carId);
  }, []);

  const audioHandlers = useMemo(
    () => Array.from({ length: MAX_TILES }, (_, i) => (on: boolean) => setAudioTile((cur) => (on ? i : cur === i ? null : cur))),
    [],
  );

  return { stopLater, onOpened, audioTile, setAudioTile, audioHandlers };
}
