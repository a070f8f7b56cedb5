/**
 * Keeping several playbacks of one car in step (manager/videoReplaying2, D86). Each channel is its own
 * device stream and player; their positions (device media time of the picture shown, Unix ms) drift
 * apart because each stream starts, buffers and stalls on its own. A tile ahead can always wait for the
 * others (its element is paused or slowed, the device keeps sending), but a tile behind cannot play
 * faster than its device sends, so:
 * - the reference is the slowest tile that is running; tiles ahead of it slow down a little, or wait
 *   outright when they are more than about a second ahead;
 * - a tile far behind the leader (a stall, a late start) is sought forward past the leader, to the place
 *   the others will have reached when its restart is done, and then waits for them.
 * Thresholds are in media time and grow with the speed (at 16× a second of wall time is 16 s of media).
 */

export interface SyncTile {
  key: number;
  /** Media time of the picture shown (Unix ms), null before the first picture. */
  position: number | null;
  /** Playing (or held by the sync); false while requesting, buffering, stalled, paused or ended. */
  running: boolean;
  /** The sync holds it (its element paused) until the others catch up. */
  held: boolean;
  /** When (page clock, ms) it was last sought by the sync, null if never. */
  lastSeekAt: number | null;
}

export type SyncAction = { kind: 'run'; rate: number } | { kind: 'hold' } | { kind: 'seek'; to: number };

export interface SyncPlan {
  /** The shared position: the slowest running tile (null when none runs). */
  reference: number | null;
  actions: Map<number, SyncAction>;
}

export const SYNC = {
  holdMs: 1000, // ahead by more than this: wait
  nudgeMs: 150, // ahead by more than this: play slower (a held tile waits until within it)
  nudgeRate: 0.85,
  seekMs: 3000, // behind the leader by more than this: seek
  seekLeadMs: 1500, // a restart takes about this long (wall time): seek that far past the leader
  cooldownMs: 8000, // a tile sought is left to restart and settle before it may be sought again
};

export function syncPlan(tiles: readonly SyncTile[], speed: number, now: number, o = SYNC): SyncPlan {
  const actions = new Map<number, SyncAction>();
  const k = Math.max(1, speed / 2);
  const running = tiles.filter((t): t is SyncTile & { position: number } => t.running && t.position !== null);
  if (running.length === 0) return { reference: null, actions };
  const leader = Math.max(...running.map((t) => t.position));
  const settled = [];
  for (const t of running) {
    const cooling = t.lastSeekAt !== null && now - t.lastSeekAt < o.cooldownMs;
    if (leader - t.position > o.seekMs * k) {
      actions.set(t.key, cooling ? { kind: 'run', rate: speed } : { kind: 'seek', to: Math.round(leader + o.seekLeadMs * speed) });
    } else settled.push(t);
  }
  if (settled.length === 0) return { reference: null, actions };
  const reference = Math.min(...settled.map((t) => t.position));
  for (const t of settled) {
    const ahead = t.position - reference;
    if (ahead > o.holdMs * k || (t.held && ahead > o.nudgeMs * k)) actions.set(t.key, { kind: 'hold' });
    else if (ahead > o.nudgeMs * k) actions.set(t.key, { kind: 'run', rate: speed * o.nudgeRate });
    else actions.set(t.key, { kind: 'run', rate: speed });
  }
  return { reference, actions };
}

/** The largest gap between the running tiles' positions (ms), for the page's "in step" readout and tests. */
export function spread(tiles: readonly SyncTile[]): number {
  const p = tiles.filter((t) => t.running && t.position !== null).map((t) => t.position as number);
  return p.length < 2 ? 0 : Math.max(...p) - Math.min(...p);
}

/**
 * The first place worth playing from: `at` when a recording holds it, else the start of the next
 * recording at or after `at` (any channel); null when nothing is left before `end`.
 */
export function startPoint(recs: readonly { start: number; end: number }[], at: number, end: number): number | null {
  let best: number | null = null;
  for (const r of recs) {
    if (r.end <= at || r.start >= end) continue;
    const s = Math.max(r.start, at);
    if (best === null || s < best) best = s;
  }
  return best;
}
