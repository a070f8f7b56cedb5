import { describe, expect, it } from 'vitest';
import type { CarFunctions } from '../api/equipment';
import { carActions, channelsToOffer } from './carFunctions';

const f = (o: Partial<CarFunctions>): CarFunctions => ({
  carId: 1,
  known: true,
  models: ['TW-808T'],
  videoChannels: 0,
  channelNames: [],
  probes: 0,
  lockBle: false,
  lock4g: false,
  locks: 0,
  valveSensors: 0,
  can: false,
  showVideo: false,
  showLocks: false,
  ...o,
});

describe('carActions', () => {
  it('shows everything when nothing is known', () => {
    expect(carActions(undefined)).toEqual({ video: true, locks: true, unknown: true });
    expect(carActions(f({ known: false, showVideo: true, showLocks: true }))).toEqual({ video: true, locks: true, unknown: true });
  });
  it('follows the server for a known model', () => {
    expect(carActions(f({ showVideo: false, showLocks: true }))).toEqual({ video: false, locks: true, unknown: false });
    expect(carActions(f({ showVideo: true, showLocks: false }))).toEqual({ video: true, locks: false, unknown: false });
  });
});

describe('channelsToOffer', () => {
  const four = f({ videoChannels: 3, channelNames: ['前方道路', '驾驶室'] });
  it('offers the model channels to a car without any', () => {
    expect(channelsToOffer(four, [])).toEqual([
      { channelNo: 1, name: '前方道路', enabled: true },
      { channelNo: 2, name: '驾驶室', enabled: true },
      { channelNo: 3, name: '', enabled: true },
    ]);
  });
  it('offers nothing when the car already has them (an unnamed model channel keeps the car name)', () => {
    expect(
      channelsToOffer(four, [
        { channelNo: 1, name: '前方道路', enabled: true },
        { channelNo: 2, name: '驾驶室', enabled: false },
        { channelNo: 3, name: '罐顶', enabled: true },
      ]),
    ).toBeNull();
  });
  it('offers when a name or the count differs', () => {
    expect(channelsToOffer(four, [{ channelNo: 1, name: '前方', enabled: true }])).toHaveLength(3);
  });
  it('offers nothing without a known model with video', () => {
    expect(channelsToOffer(f({ known: false, videoChannels: 4 }), [])).toBeNull();
    expect(channelsToOffer(f({ videoChannels: 0 }), [])).toBeNull();
    expect(channelsToOffer(null, [])).toBeNull();
  });
});
