import { describe, expect, it } from 'vitest';
import type { MenuNode } from '../api/types';
import { abnormalReasonKeys, countCardTarget, countsTime, menuHasCode, share, tileCount } from './cockpit';

const menu = [
  { name: 'home', code: '01', children: [] },
  { name: 'manager', code: '04', children: [{ name: 'monitoring', code: '04-01', children: [] }] },
] as unknown as MenuNode[];

describe('cockpit', () => {
  it('finds menu codes at any depth', () => {
    expect(menuHasCode(menu, '04-01')).toBe(true);
    expect(menuHasCode(menu, '04-02')).toBe(false);
    expect(menuHasCode(null, '01')).toBe(false);
  });

  it.each([
    ['/home', '4', '在途', true, '/manager/monitoring2?code=4&title=%E5%9C%A8%E9%80%94'],
    ['/manager/monitoring2', '7', 'Offline', true, '/manager/monitoring2?code=7&title=Offline'],
    ['/manager/trackReplaying', '3', 'x', true, '/manager/trackReplaying?code=3&title=x'],
    ['/manager/videoLive?code=4&title=y', '5', 'z', true, '/manager/videoLive?code=5&title=z'],
    ['/manager/videoReplaying', '8', 'all', true, '/manager/videoReplaying?code=8&title=all'],
    ['/manager/videoReplaying2', '8', 'all', true, '/manager/monitoring2?code=8&title=all'],
    ['/home', '4', '在途', false, null],
  ] as const)('from %s code %s → %s', (path, code, title, may, want) => {
    expect(countCardTarget(path, code, title, may)).toBe(want);
  });

  it('computes shares of the total', () => {
    expect(share({ '8': 200, '4': 50 }, '4')).toBe(25);
    expect(share({ '8': 3, '4': 1 }, '4')).toBe(33);
    expect(share({}, '4')).toBe(0);
    expect(share({ '8': 0, '4': 0 }, '4')).toBe(0);
    // the three states add up to 100 (plain rounding: 33 + 33 + 33 = 99), and 异常 1 of 200 is not 0 %
    const c = { '8': 3, '4': 1, '5': 1, '7': 1, '3': 0 };
    expect(share(c, '4') + share(c, '5') + share(c, '7')).toBe(100);
    expect(share({ '8': 200, '4': 120, '5': 50, '7': 30, '3': 1 }, '3')).toBe(1);
    expect(share({ '8': 1000, '4': 995, '5': 4, '7': 1 }, '7')).toBe(1);
  });
});

describe('tileCount', () => {
  const counts = { '8': 200, '4': 120, '5': 50, '7': 30, '3': 8 };
  it.each([
    ['home', counts, 1, 200, 'vehicles'],
    ['manager', counts, 49, 170, 'online'],
    ['police', counts, 8, 8, 'abnormal'],
    ['basedata', counts, 20, 20, 'pages'],
    ['manager', undefined, 49, 49, 'pages'],
  ] as const)('%s', (module, c, pages, n, kind) => {
    expect(tileCount(module, c, pages)).toEqual({ n, kind });
  });
});

describe('abnormalReasonKeys', () => {
  it.each([
    [{ alarm: 3, seal: 1 }, ['home.reason.alarm']],
    [{ alarm: 0, seal: 2 }, ['home.reason.seal']],
    [{ alarm: 1, seal: 2 }, ['home.reason.alarm', 'home.reason.seal']],
    [{ alarm: 0, seal: 1 }, ['home.reason.fault']],
  ])('%o', (car, want) => {
    expect(abnormalReasonKeys(car)).toEqual(want);
  });
});

describe('countsTime', () => {
  it.each([
    ['the server time when sent', { '8': 1, serverTime: 1_772_330_584_000 }, 5, 1_772_330_584_000],
    ['the receipt time from an older server', { '8': 1 }, 5, 5],
    ['nothing received', undefined, 0, 0],
    ['a bad server time', { serverTime: Number.NaN }, 7, 7],
  ] as const)('%s', (_n, counts, received, want) => expect(countsTime(counts, received)).toBe(want));
});
