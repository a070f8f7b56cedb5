import { formatServerTime, parseServerTime } from '../../../lib/playback';
import type { Recording } from '../../../api/video';

/** The playback speeds a terminal offers (0x9202 speed 1–5). */
export const SPEEDS = [1, 2, 4, 8, 16] as const;

/** A recording with its times in ms. */
export interface Span {
  rec: Recording;
  start: number;
  end: number;
}

export function spans(recs: readonly Recording[]): Span[] {
  const out: Span[] = [];
  for (const rec of recs) {
    const start = parseServerTime(rec.startTime);
    const end = parseServerTime(rec.endTime);
    if (Number.isFinite(start) && Number.isFinite(end) && end > start) out.push({ rec, start, end });
  }
  return out;
}

/** Where a span sits on a timeline of [from, to], in percent (clipped to the bar). */
export function place(s: { start: number; end: number }, from: number, to: number): { left: number; width: number } | null {
  if (!(to > from) || s.end <= from || s.start >= to) return null;
  const a = Math.max(s.start, from);
  const b = Math.min(s.end, to);
  return { left: ((a - from) / (to - from)) * 100, width: Math.max(((b - a) / (to - from)) * 100, 0.2) };
}

/** The time at a fraction (0–1) of the timeline [from, to]. */
export function timeAt(fraction: number, from: number, to: number): number {
  return Math.round(from + Math.min(1, Math.max(0, fraction)) * (to - from));
}

/** The recording of channel (0: any) that holds time t, preferring `prefer` when it does. */
export function spanAt(list: readonly Span[], t: number, channel: number, prefer?: Span | null): Span | null {
  if (prefer && t >= prefer.start && t < prefer.end) return prefer;
  return list.find((s) => (channel === 0 || s.rec.channelNo === channel) && t >= s.start && t < s.end) ?? null;
}

/** Where the picture is: the device time of its first picture plus how far the player has played. */
export function mediaPosition(mediaTime: number | null, currentTime: number): number | null {
  return mediaTime === null ? null : mediaTime + Math.round(currentTime * 1000);
}

/** A saved clip's file name: plate, channel and the time it starts. */
export function clipName(plate: string, channelNo: number, startMs: number): string {
  const t = formatServerTime(startMs).replace(/[-: ]/g, '');
  return `${plate.replace(/[\\/:*?"<>|·\s]/g, '')}-ch${channelNo}-${t.slice(0, 8)}-${t.slice(8)}.flv`;
}

/** The FLV bytes received since the player started, to save as a file; bounded (the oldest are not dropped: it stops keeping). */
export class ClipRecorder {
  private chunks: ArrayBuffer[] = [];
  bytes = 0;
  full = false;
  constructor(private readonly limit = 256 << 20) {}
  push(chunk: ArrayBuffer): void {
    if (this.full) return;
    if (this.bytes + chunk.byteLength > this.limit) {
      this.full = true;
      return;
    }
    this.chunks.push(chunk);
    this.bytes += chunk.byteLength;
  }
  blob(): Blob {
    return new Blob(this.chunks, { type: 'video/x-flv' });
  }
}

/** Bytes as "1.5 MB". */
export function sizeText(n: number): string {
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(1)} GB`;
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(n / 1024))} KB`;
}
