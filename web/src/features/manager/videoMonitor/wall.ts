/**
 * Pure logic of the video monitoring wall (manager/videoMonitor, issue 17): a wall that follows alarms
 * and rotates through a chosen group of cars' cameras.
 *
 * A slot holds one camera (car + channel). It came from an alarm or from the rotation, may be pinned
 * (then nothing replaces it), and has a sequence number: the higher, the newer. The wall shows the
 * newest first.
 */
import { sameTarget, type TileTarget } from '../videoLive/logic';

/** A camera of a car. */
export interface Camera extends TileTarget {
  plate: string;
  channelName: string;
}

/** The alarm a slot was brought up by. */
export interface SlotAlarm {
  id: string;
  typeName: string;
  /** Epoch ms of the alarm. */
  at: number;
  level: number;
}

export interface Slot extends Camera {
  /** A new id means a new stream request (VideoTile restarts on it). */
  id: number;
  source: 'alarm' | 'rotation';
  pinned: boolean;
  seq: number;
  alarm?: SlotAlarm;
}

export type Wall = readonly (Slot | null)[];

/** The live alarm push (msg/user/{id}, key "alarm") as the wall reads it. */
export interface AlarmEvent {
  id: string;
  carId: number;
  plate: string;
  typeName: string;
  level: number;
  at: number;
}

/** Numbers the slots and their streams: the wall's only state outside the slots. */
export interface Counter {
  seq: number;
  id: number;
}

/**
 * The alarm push of a live message (internal/alarm Engine.push): key "alarm", data carId, carNumber,
 * type, level, alarmId and the type name per language (`typeName:<lang>`). Anything else → null.
 */
export function alarmOfMessage(m: { key: string; code: string; timestamp: number; data: Record<string, string> }, lang: string): AlarmEvent | null {
  if (m.key !== 'alarm') return null;
  const carId = Number(m.data.carId);
  if (!Number.isInteger(carId) || carId <= 0) return null;
  const typeName = m.data[`typeName:${lang}`] || m.data['typeName:zh-CN'] || m.data.type || m.code;
  const level = Number(m.data.level);
  return {
    id: m.data.alarmId || `${carId}-${m.code}-${m.timestamp}`,
    carId,
    plate: m.data.carNumber || String(carId),
    typeName,
    level: Number.isFinite(level) ? level : 0,
    at: Number(m.timestamp) || 0,
  };
}

/**
 * The tiles an alarm's cameras take, one per camera, at most `count`: the tile already showing that
 * camera (it keeps its stream and takes the alarm); else a free tile; else the oldest unpinned tile
 * not taken by this alarm. Pinned tiles are never taken; cameras beyond the free room are left out.
 * Returns the new wall and the slots it replaced (their streams are to be stopped).
 */
export function placeAlarm(wall: Wall, count: number, alarm: AlarmEvent, cameras: readonly Camera[], n: Counter): { wall: (Slot | null)[]; replaced: Slot[] } {
  const next = wall.slice(0, Math.max(count, wall.length)) as (Slot | null)[];
  const replaced: Slot[] = [];
  const taken = new Set<number>();
  const slotAlarm: SlotAlarm = { id: alarm.id, typeName: alarm.typeName, at: alarm.at, level: alarm.level };
  for (const cam of cameras.slice(0, count)) {
    let i = next.findIndex((s, k) => k < count && sameTarget(s, cam));
    if (i >= 0) {
      const s = next[i] as Slot;
      next[i] = { ...s, source: 'alarm', alarm: slotAlarm, seq: ++n.seq };
      taken.add(i);
      continue;
    }
    i = next.findIndex((s, k) => k < count && !s && !taken.has(k));
    if (i < 0) i = oldestUnpinned(next, count, taken);
    if (i < 0) break; // every other tile is pinned or has this alarm
    const old = next[i];
    if (old) replaced.push(old);
    next[i] = { ...cam, id: ++n.id, source: 'alarm', pinned: false, seq: ++n.seq, alarm: slotAlarm };
    taken.add(i);
  }
  return { wall: next, replaced };
}

function oldestUnpinned(wall: Wall, count: number, skip: ReadonlySet<number>, only?: (s: Slot) => boolean): number {
  let best = -1;
  for (let k = 0; k < count; k++) {
    const s = wall[k];
    if (!s || s.pinned || skip.has(k) || (only && !only(s))) continue;
    if (best < 0 || s.seq < (wall[best] as Slot).seq) best = k;
  }
  return best;
}

/** The rotation's order: every camera of the chosen cars, car by car (in the order given), channel by channel. */
export function rotationOrder(cars: readonly { carId: number; plate: string; channels: readonly { channelNo: number; name: string; enabled: boolean }[] }[]): Camera[] {
  const out: Camera[] = [];
  for (const c of cars) {
    for (const ch of [...c.channels].sort((a, b) => a.channelNo - b.channelNo)) {
      if (ch.enabled) out.push({ carId: c.carId, channelNo: ch.channelNo, plate: c.plate, channelName: ch.name });
    }
  }
  return out;
}

/**
 * One step of the rotation: the tiles it may use (free ones and those the rotation filled, unpinned;
 * alarms and pinned tiles stay) get the next cameras of `order` from `cursor`, skipping cameras the
 * wall already shows. Returns the new wall, the next cursor and the slots replaced.
 */
export function rotationStep(wall: Wall, count: number, order: readonly Camera[], cursor: number, n: Counter): { wall: (Slot | null)[]; cursor: number; replaced: Slot[] } {
  const next = wall.slice(0, Math.max(count, wall.length)) as (Slot | null)[];
  const usable: number[] = [];
  for (let k = 0; k < count; k++) {
    const s = next[k];
    if (!s || (s.source === 'rotation' && !s.pinned)) usable.push(k);
  }
  const replaced: Slot[] = [];
  if (order.length === 0 || usable.length === 0) return { wall: next, cursor, replaced };
  // the cameras that stay (alarms, pinned) are not shown twice
  const staying = next.filter((s, k): s is Slot => k < count && !!s && !usable.includes(k));
  const candidates = order.filter((c) => !staying.some((s) => sameTarget(s, c)));
  let at = ((cursor % order.length) + order.length) % order.length;
  const picked: Camera[] = [];
  for (let tried = 0; tried < order.length && picked.length < Math.min(usable.length, candidates.length); tried++) {
    const c = order[at];
    at = (at + 1) % order.length;
    if (candidates.includes(c) && !picked.some((p) => sameTarget(p, c))) picked.push(c);
  }
  // a camera still picked keeps its tile (and its stream); the others fill the remaining tiles in order
  const keep = new Set<number>();
  const rest = picked.filter((c) => {
    const k = usable.find((u) => !keep.has(u) && sameTarget(next[u], c));
    if (k === undefined) return true;
    keep.add(k);
    next[k] = { ...(next[k] as Slot), seq: ++n.seq };
    return false;
  });
  for (const k of usable) {
    if (keep.has(k)) continue;
    const old = next[k];
    const cam = rest.shift();
    if (old) replaced.push(old);
    next[k] = cam ? { ...cam, id: ++n.id, source: 'rotation', pinned: false, seq: ++n.seq } : null;
  }
  return { wall: next, cursor: at, replaced };
}

/** The wall's tiles newest first: the grid order of each tile (CSS order), empty tiles last. */
export function displayOrder(wall: Wall, count: number): number[] {
  const idx = Array.from({ length: count }, (_, k) => k);
  const ranked = [...idx].sort((a, b) => {
    const sa = wall[a];
    const sb = wall[b];
    if (!sa || !sb) return (sa ? 0 : 1) - (sb ? 0 : 1) || a - b;
    return sb.seq - sa.seq;
  });
  const order = Array<number>(count).fill(0);
  ranked.forEach((k, pos) => {
    order[k] = pos;
  });
  return order;
}

/** Slots that disappear from the wall (replaced, closed, past the layout) and are shown nowhere else. */
export function gone(replaced: readonly Slot[], wall: Wall): Slot[] {
  return replaced.filter((s) => !wall.some((x) => sameTarget(x, s)));
}

/** Rotation intervals offered, seconds. */
export const INTERVALS = [10, 20, 30, 60, 120] as const;
