import { useCallback, useEffect, useRef, useState } from 'react';
import { advance, DEFAULT_SPEED, type Stop, type Track } from '../../../lib/playback';

export interface Player {
  t: number;
  playing: boolean;
  speed: number;
  skipStops: boolean;
  play: () => void;
  pause: () => void;
  seek: (t: number) => void;
  setSpeed: (s: number) => void;
  setSkipStops: (b: boolean) => void;
}

/**
 * Plays a track on animation frames: the playback time advances by real elapsed time × speed. The
 * time is React state (the map marker and the slider follow it); at most one update per frame.
 */
export function usePlayer(track: Track | null, stops: readonly Stop[]): Player {
  const [t, setT] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(DEFAULT_SPEED);
  const [skipStops, setSkipStops] = useState(false);
  const tRef = useRef(0);
  tRef.current = t;

  // a new track starts at its beginning, paused
  useEffect(() => {
    setPlaying(false);
    setT(track ? track.start : 0);
  }, [track]);

  useEffect(() => {
    if (!playing || !track) return;
    let frame = 0;
    let last = performance.now();
    const tick = (now: number) => {
      const next = advance(track, tRef.current, now - last, speed, stops, skipStops);
      last = now;
      setT(next);
      if (next >= track.end) {
        setPlaying(false);
        return;
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, track, speed, stops, skipStops]);

  const play = useCallback(() => {
    if (!track) return;
    if (tRef.current >= track.end) setT(track.start); // play again from the start
    setPlaying(true);
  }, [track]);
  const pause = useCallback(() => setPlaying(false), []);
  const seek = useCallback((v: number) => setT(v), []);
  return { t, playing, speed, skipStops, play, pause, seek, setSpeed, setSkipStops };
}
