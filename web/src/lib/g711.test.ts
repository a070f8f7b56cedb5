import { describe, expect, it } from 'vitest';
import { decodeG711, g711Sample } from './g711';

describe('G.711', () => {
  it.each([
    // A-law: 0xD5 and 0x55 are the smallest magnitudes (±8); 0xAA / 0x2A the largest (±32256)
    [0xd5, 'alaw', 8],
    [0x55, 'alaw', -8],
    [0xaa, 'alaw', 32256],
    [0x2a, 'alaw', -32256],
    // μ-law: 0xFF and 0x7F are zero; 0x80 / 0x00 the largest (±32124)
    [0xff, 'ulaw', 0],
    [0x7f, 'ulaw', 0],
    [0x80, 'ulaw', 32124],
    [0x00, 'ulaw', -32124],
  ] as const)('byte %i (%s) is %i', (byte, law, want) => {
    expect(g711Sample(byte, law)).toBe(want);
  });

  it('gives 16-bit samples with distinct levels on both laws', () => {
    for (const law of ['alaw', 'ulaw'] as const) {
      const all = Array.from({ length: 256 }, (_, i) => g711Sample(i, law));
      const pos = new Set(all.filter((v) => v > 0));
      expect(pos.size).toBeGreaterThan(120);
      expect(Math.max(...all)).toBeLessThanOrEqual(32767);
      expect(Math.min(...all)).toBeGreaterThanOrEqual(-32768);
    }
  });

  it('decodes a buffer to floats in [-1, 1)', () => {
    const out = decodeG711(new Uint8Array([0xd5, 0xaa, 0x2a]), 'alaw');
    expect(Array.from(out)).toEqual([8 / 32768, 32256 / 32768, -32256 / 32768]);
  });
});
