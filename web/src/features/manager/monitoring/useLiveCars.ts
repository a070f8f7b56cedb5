import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { handleInvalidToken } from '../../../api/client';
import { warn } from '../../../api/feedback';
import { LiveStream, liveUrl } from '../../../api/liveStream';
import { carExhibition } from '../../../api/monitor';
import { carCount } from '../../../api/vehicleCounts';
import { STORAGE, useAppStore } from '../../../app/store';
import { DeltaBatch } from './deltaBatch';
import { useMonitorStore } from './store';

/** While the live stream is down, positions and counts are read over HTTP this often. */
export const FALLBACK_POLL_MS = 15_000;

/**
 * Keeps the monitoring store's cars and counts current: the live stream (every car of the user's scope;
 * the tree's checks only filter what is drawn), and plain HTTP reads at start and while the stream is
 * not connected (e.g. a server without the stream, or a broken connection).
 */
export function useLiveCars(): { httpError: boolean; retry: () => void } {
  const lang = useAppStore((s) => s.lang);
  const liveState = useMonitorStore((s) => s.liveState);
  const loaded = useMonitorStore((s) => s.loaded);

  useEffect(() => {
    const store = useMonitorStore.getState;
    let lastError = '';
    // Deltas are applied once an animation frame, however often they come (deltaBatch.ts).
    const deltas = new DeltaBatch((d) => store().applyDelta(d.cars, d.counts, d.time));
    const stream = new LiveStream({
      url: () => liveUrl(localStorage.getItem(STORAGE.token) ?? '', lang),
      onMessage: (m) => {
        if (m.type === 'snapshot') {
          deltas.clear();
          store().applySnapshot(m.cars, m.counts, m.time);
        } else if (m.type === 'delta') deltas.add(m.cars, m.counts, m.time);
        else if (m.message && m.message !== lastError) {
          lastError = m.message;
          warn(m.message);
        }
      },
      onState: (s) => store().setLiveState(s),
      onUnauthorized: handleInvalidToken,
    });
    stream.start();
    stream.select({ all: true, carIds: [] });
    return () => {
      stream.stop();
      deltas.clear();
      store().setLiveState('closed');
    };
  }, [lang]);

  const live = liveState === 'open';
  const cars = useQuery({
    queryKey: ['monitor', 'exhibition'],
    queryFn: () => carExhibition(),
    refetchInterval: live ? false : FALLBACK_POLL_MS,
    staleTime: 0,
  });
  const counts = useQuery({
    queryKey: ['monitor', 'carCount'],
    queryFn: () => carCount(),
    refetchInterval: live ? false : FALLBACK_POLL_MS,
    staleTime: 0,
  });

  useEffect(() => {
    // Only when the stream is not delivering: a snapshot is newer than any HTTP read.
    if (cars.data && useMonitorStore.getState().liveState !== 'open') useMonitorStore.getState().applySnapshot(cars.data);
  }, [cars.data, cars.dataUpdatedAt]);
  useEffect(() => {
    if (counts.data && useMonitorStore.getState().liveState !== 'open') useMonitorStore.setState({ counts: counts.data });
  }, [counts.data, counts.dataUpdatedAt]);

  return {
    httpError: cars.isError && !loaded,
    retry: () => {
      void cars.refetch();
      void counts.refetch();
    },
  };
}
