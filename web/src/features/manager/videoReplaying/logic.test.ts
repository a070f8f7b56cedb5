import { describe, expect, it } from 'vitest';
import { parseServerTime } from '../../../lib/playback';
import { ClipRecorder, clipName, mediaPosition, place, sizeText, spanAt, spans, timeAt } from './logic';

const rec = (channelNo: number, startTime: string, endTime: string) => ({ channelNo, startTime, endTime, alarm: '0', mediaType: 0, streamType: 1, storageType: 1, size: 1000 });

describe('videoReplaying logic', () => {
  const list = spans([rec(1, '2026-11-26 08:00:00', '2026-11-26 08:10:00'), rec(2, '2026-11-26 08:05:00', '2026-11-26 08:15:00'), rec(1, 'bad', '2026-11-26 08:10:00')]);
  const from = parseServerTime('2026-11-26 08:00:00');
  const to = parseServerTime('2026-11-26 09:00:00');

  it('keeps recordings with readable times', () => {
    expect(list).toHaveLength(2);
    expect(list[0].end - list[0].start).toBe(600_000);
  });

  it('places a recording on the timeline and clips it to the bar', () => {
    expect(place(list[0], from, to)).toEqual({ left: 0, width: (10 / 60) * 100 });
    expect(place(list[1], from + 600_000, to)?.left).toBe(0);
    expect(place(list[0], to, to + 1000)).toBeNull();
  });

  it('turns a click into a time and finds the recording holding it', () => {
    const t = timeAt(0.125, from, to); // 08:07:30
    expect(t).toBe(from + 450_000);
    expect(timeAt(2, from, to)).toBe(to);
    expect(spanAt(list, t, 0)?.rec.channelNo).toBe(1);
    expect(spanAt(list, t, 2)?.rec.channelNo).toBe(2);
    expect(spanAt(list, t, 0, list[1])?.rec.channelNo).toBe(2);
    expect(spanAt(list, from + 900_000, 1)).toBeNull();
  });

  it('computes the media position from the stream time and the player clock', () => {
    expect(mediaPosition(null, 3)).toBeNull();
    expect(mediaPosition(1_000_000, 2.5)).toBe(1_002_500);
  });

  it('names a saved clip and keeps its bytes up to a bound', () => {
    expect(clipName('冀A·3K281', 2, from)).toBe('冀A3K281-ch2-20261126-080000.flv');
    const r = new ClipRecorder(10);
    r.push(new ArrayBuffer(6));
    r.push(new ArrayBuffer(6));
    expect(r.bytes).toBe(6);
    expect(r.full).toBe(true);
    expect(r.blob().size).toBe(6);
    expect(sizeText(1536 * 1024)).toBe('1.5 MB');
  });
});
