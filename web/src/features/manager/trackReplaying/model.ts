import type { TrackDTO } from '../../../api/track';
import { makeTrack, parseServerTime, type PlayPoint, type Stop, type Track } from '../../../lib/playback';

/** A stop or an alarm of the track, as the list beside the map shows them. */
export interface TrackEvent {
  kind: 'stop' | 'alarm';
  t: number;
  end?: number;
  minutes?: number;
  lat: number;
  lng: number;
  names?: string[];
  speed?: number;
}

export interface TrackModel {
  plate: string;
  track: Track;
  stops: Stop[];
  events: TrackEvent[];
  truncated: boolean;
}

/** The server's track as the player needs it: times in ms; points with unreadable times left out. */
export function toModel(dto: TrackDTO): TrackModel {
  const points: PlayPoint[] = [];
  for (const p of dto.points) {
    const t = parseServerTime(p.time);
    if (Number.isFinite(t)) points.push({ t, lat: p.lat, lng: p.lng, speed: p.speed, direction: p.direction });
  }
  const stops = dto.stops.map((s) => ({ start: parseServerTime(s.start), end: parseServerTime(s.end) })).filter((s) => Number.isFinite(s.start) && Number.isFinite(s.end));
  const events: TrackEvent[] = [
    ...dto.stops.map((s) => ({ kind: 'stop' as const, t: parseServerTime(s.start), end: parseServerTime(s.end), minutes: s.minutes, lat: s.lat, lng: s.lng })),
    ...dto.alarms.map((a) => ({ kind: 'alarm' as const, t: parseServerTime(a.time), lat: a.lat, lng: a.lng, names: a.names, speed: a.speed })),
  ]
    .filter((e) => Number.isFinite(e.t))
    .sort((a, b) => a.t - b.t);
  return { plate: dto.plate, track: makeTrack(points), stops, events, truncated: dto.truncated };
}
