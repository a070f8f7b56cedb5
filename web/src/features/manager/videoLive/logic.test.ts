import { describe, expect, it } from 'vitest';
import { carBatches, channelsToShow, closeCodeKey, gridSide, pickTile, reasonKey, refusedStatusKey, snapshotName, tileCount } from './logic';

describe('layouts', () => {
  it('gives the tile count and grid side of each layout', () => {
    expect([1, 4, 9, 16].map(tileCount)).toEqual([1, 4, 9, 16]);
    expect([1, 4, 9, 16].map(gridSide)).toEqual([1, 2, 3, 4]);
    expect(tileCount(5)).toBe(4);
  });
});

describe('pickTile', () => {
  const a = { carId: 1, channelNo: 1 };
  const b = { carId: 1, channelNo: 2 };
  const c = { carId: 2, channelNo: 1 };
  it('reuses the tile already playing the channel', () => {
    expect(pickTile([a, b, null, null], 4, { carId: 1, channelNo: 2 }, 3, 1)).toBe(1);
  });
  it('takes the selected tile, else the first free one', () => {
    expect(pickTile([a, null, null, null], 4, c, 2, 0)).toBe(2);
    expect(pickTile([a, null, null, null], 4, c, null, 0)).toBe(1);
    expect(pickTile([a, b, null, null], 4, c, 7, 1)).toBe(2);
  });
  it('goes round the wall when every tile plays', () => {
    expect(pickTile([a, b, c, { carId: 3, channelNo: 1 }], 4, { carId: 9, channelNo: 1 }, null, 3)).toBe(0);
    expect(pickTile([a, b, c, { carId: 3, channelNo: 1 }], 4, { carId: 9, channelNo: 1 }, null, 1)).toBe(2);
    expect(pickTile([a], 1, c, null, 0)).toBe(0);
  });
  it('only looks at the tiles of the layout', () => {
    expect(pickTile([a, null, null, null, c], 1, c, null, 0)).toBe(0);
  });
});

describe('status texts', () => {
  it('maps documented reasons and unknown ones', () => {
    for (const r of ['offline', 'timeout', 'rejected', 'tooMany', 'channel', 'noChannels', 'disabled', 'noStream']) expect(reasonKey(r)).toBe(r);
    expect(reasonKey('weird')).toBe('failed');
    expect(reasonKey(undefined)).toBe('failed');
  });
  it('maps the WebSocket close codes', () => {
    expect(closeCodeKey(4404)).toBe('ended');
    expect(closeCodeKey(4415)).toBe('h265');
    expect(closeCodeKey(4401)).toBe('invalidToken');
    expect(closeCodeKey(1001)).toBe('shutdown');
    expect(closeCodeKey(1006)).toBe('network');
  });
  it('maps refused media URLs', () => {
    expect([401, 403, 404, 503, 500].map(refusedStatusKey)).toEqual(['invalidToken', 'forbidden', 'noStream', 'tooMany', 'network']);
  });
});

describe('helpers', () => {
  it('names a screenshot plate-channel-time.png', () => {
    expect(snapshotName('沪A·6N337', '通道 1', new Date(2026, 10, 26, 9, 5, 7))).toBe('沪A·6N337-通道_1-20261126090507.png');
  });
  it('batches car ids by 64 without duplicates', () => {
    const ids = Array.from({ length: 70 }, (_, i) => i + 1);
    expect(carBatches([...ids, 3, 0]).map((b) => b.length)).toEqual([64, 6]);
    expect(carBatches([])).toEqual([]);
  });
  it('lists channels 1–4 for a car without configured channels', () => {
    expect(channelsToShow([]).map((c) => c.channelNo)).toEqual([1, 2, 3, 4]);
    expect(channelsToShow([{ channelNo: 2, name: 'x', enabled: false }])).toEqual([{ channelNo: 2, name: 'x', enabled: false, fallback: false }]);
  });
});
