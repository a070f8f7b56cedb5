/** Pure logic of the live video wall (manager/videoLive): layouts, tile assignment, status texts. */

export const LAYOUTS = [1, 4, 9, 16] as const;
export type Layout = (typeof LAYOUTS)[number];
export const MAX_TILES = 16;

/** Tiles shown by a layout and the grid's side (1 → 1×1, 4 → 2×2, 9 → 3×3, 16 → 4×4). */
export function tileCount(layout: number): number {
  return (LAYOUTS as readonly number[]).includes(layout) ? layout : 4;
}
export function gridSide(layout: number): number {
  return Math.round(Math.sqrt(tileCount(layout)));
}

/** What a tile plays: a car's channel. */
export interface TileTarget {
  carId: number;
  channelNo: number;
}

export const sameTarget = (a: TileTarget | null | undefined, b: TileTarget | null | undefined) =>
  !!a && !!b && a.carId === b.carId && a.channelNo === b.channelNo;

/**
 * The tile a clicked channel goes to: the tile already playing it; else the selected tile; else the
 * first free tile of the layout; else the tile after the last one filled (round the wall).
 */
export function pickTile(tiles: readonly (TileTarget | null)[], count: number, target: TileTarget, selected: number | null, last: number): number {
  for (let i = 0; i < count; i++) if (sameTarget(tiles[i], target)) return i;
  if (selected != null && selected >= 0 && selected < count) return selected;
  for (let i = 0; i < count; i++) if (!tiles[i]) return i;
  return (((last + 1) % count) + count) % count;
}

/** A tile's state: the request, then the player's, or a failure. */
export type TileStatus = 'requesting' | 'buffering' | 'playing' | 'failed';

/** The documented failure reasons (docs/API.md, Live video) that have their own text. */
const REASONS = ['offline', 'timeout', 'rejected', 'tooMany', 'channel', 'noChannels', 'disabled', 'noStream'] as const;

/** i18n key (under `videoLive.reason`) of a failure reason of doVisual; unknown reasons → `failed`. */
export function reasonKey(reason: unknown): string {
  return typeof reason === 'string' && (REASONS as readonly string[]).includes(reason) ? reason : 'failed';
}

/**
 * i18n key (under `videoLive.reason`) of the media WebSocket's close: 4404 the stream ended, 4415 H.265
 * (not playable here), 4401 the sign-in expired, 1001 the server is going down; anything else a lost
 * connection.
 */
export function closeCodeKey(code: number): string {
  switch (code) {
    case 4404:
      return 'ended';
    case 4415:
      return 'h265';
    case 4401:
      return 'invalidToken';
    case 1001:
      return 'shutdown';
    default:
      return 'network';
  }
}

/** HTTP status of a media URL refused before the upgrade (401/403/404/503) → key, as the close codes. */
export function refusedStatusKey(status: number): string {
  if (status === 401) return 'invalidToken';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'noStream';
  if (status === 503) return 'tooMany';
  return 'network';
}

/** Screenshot file name: plate-channel-time.png (characters a file system refuses replaced). */
export function snapshotName(plate: string, channel: string, at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const time = `${at.getFullYear()}${p(at.getMonth() + 1)}${p(at.getDate())}${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`;
  const clean = (s: string) => s.replace(/[\\/:*?"<>|\s]+/g, '_');
  return `${clean(plate)}-${clean(channel)}-${time}.png`;
}

/** The cars whose streams the page opened (for stopLiveVideos on leaving, ≤ 64 per call). */
export function carBatches(carIds: Iterable<number>, size = 64): number[][] {
  const ids = [...new Set(carIds)].filter((n) => Number.isInteger(n) && n > 0);
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/** Channels to list for a car: its configured ones, or 1–4 when none are configured (the server accepts 1–32 then). */
export function channelsToShow<T extends { channelNo: number; name: string; enabled: boolean }>(list: readonly T[]): { channelNo: number; name: string; enabled: boolean; fallback: boolean }[] {
  if (list.length === 0) return [1, 2, 3, 4].map((n) => ({ channelNo: n, name: '', enabled: true, fallback: true }));
  return list.map((c) => ({ channelNo: c.channelNo, name: c.name, enabled: c.enabled, fallback: false }));
}

/** A stream's packet loss (percent, the server's last 10 s) from which its tile says so. */
export const HIGH_LOSS = 5;
/** How often a playing tile asks for its stream's loss (the server measures it every 10 s). */
export const LOSS_POLL_MS = 10_000;
