import { describe, expect, it } from 'vitest';
import { percentages, shareOf } from './percent';

const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 1000) / 1000;

describe('percentages (largest remainder, no non-zero shown as 0)', () => {
  it.each([
    ['three thirds', [1, 1, 1], 0, [34, 33, 33]],
    ['plain rounding would give 101', [1, 1, 1, 1, 1, 1, 1], 0, [15, 15, 14, 14, 14, 14, 14]],
    ['plain rounding would give 99', [333, 333, 334], 0, [33, 33, 34]],
    ['the larger remainder wins', [120, 50, 30], 0, [60, 25, 15]],
    ['one of 200 is not 0', [199, 1], 0, [99, 1]],
    ['one of 1000 is not 0, the largest gives way', [990, 9, 1], 0, [98, 1, 1]],
    ['one decimal', [1, 1, 1], 1, [33.4, 33.3, 33.3]],
    ['one of 2000 at one decimal', [1999, 1], 1, [99.9, 0.1]],
    ['zeros stay 0', [0, 5, 0], 0, [0, 100, 0]],
    ['nothing at all', [0, 0], 0, [0, 0]],
    ['negative and NaN read 0', [-3, Number.NaN, 4], 0, [0, 0, 100]],
    ['empty', [], 0, []],
  ] as const)('%s', (_n, values, decimals, want) => {
    const got = percentages(values, decimals);
    expect(got).toEqual(want);
    if (values.some((v) => v > 0)) expect(sum(got)).toBe(100);
  });

  it('adds up to 100 and shows every non-zero count for many random splits', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let k = 0; k < 500; k++) {
      const values = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => (rnd() < 0.3 ? Math.floor(rnd() * 3) : Math.floor(rnd() * 5000)));
      const got = percentages(values);
      if (values.every((v) => v === 0)) continue;
      expect(sum(got)).toBe(100);
      values.forEach((v, i) => expect(v > 0 ? got[i] >= 1 : got[i] === 0).toBe(true));
    }
  });
});

describe('shareOf', () => {
  it.each([
    [1, 200, 1],
    [8, 200, 4],
    [199, 200, 99],
    [200, 200, 100],
    [0, 200, 0],
    [3, 0, 0],
  ])('%i of %i → %i %%', (part, total, want) => expect(shareOf(part, total)).toBe(want));
});
