import { describe, expect, it } from 'vitest';
import { compartmentStatus, parseLockState, summarize } from './lockState';

/** Builds a lock-state string from slots: {`${compartment}/${kind index}`: 'IOLF' bits}. */
function lockText(slots: Record<string, string>): string {
  const chars = Array.from({ length: 128 }, () => '0');
  for (const [key, bits] of Object.entries(slots)) {
    const [c, k] = key.split('/').map(Number);
    const at = k * 32 + (c - 1) * 4;
    for (let j = 0; j < 4; j++) chars[at + j] = bits[j];
  }
  return chars.join('');
}

describe('lock-state string', () => {
  it('reads the compartments with installed devices, in the four groups of 32', () => {
    const text = lockText({ '1/0': '1000', '1/3': '1110', '3/1': '1011', '3/2': '1100' });
    const comps = parseLockState(text);
    expect(comps.map((c) => c.no)).toEqual([1, 3]);
    expect(comps[0].devices[3]).toEqual({ kind: 'bottomValve', installed: true, open: true, locked: true, fault: false });
    expect(comps[1].devices[1]).toEqual({ kind: 'manholeCover', installed: true, open: false, locked: true, fault: true });
    expect(comps[1].devices[0].installed).toBe(false);
  });

  it('gives nothing for a text that is not a lock-state string', () => {
    expect(parseLockState('')).toEqual([]);
    expect(parseLockState(null)).toEqual([]);
    expect(parseLockState('1'.repeat(127))).toEqual([]);
    expect(parseLockState('2'.repeat(128))).toEqual([]);
    expect(parseLockState('0'.repeat(128))).toEqual([]);
  });

  it('summarises a compartment and names its most urgent state', () => {
    const [c1, c2, c3, c4] = parseLockState(
      lockText({
        '1/0': '1010', '1/1': '1010', '1/2': '1010', '1/3': '1010',
        '2/0': '1010', '2/1': '1100',
        '3/0': '1000', '3/1': '1011',
        '4/0': '1000', '4/3': '1000', '4/2': '0111',
      }),
    );
    expect(summarize(c1)).toEqual({ installed: 4, open: 0, closed: 4, locked: 4, fault: 0 });
    expect(compartmentStatus(summarize(c1))).toBe('locked');
    expect(summarize(c2)).toEqual({ installed: 2, open: 1, closed: 1, locked: 1, fault: 0 });
    expect(compartmentStatus(summarize(c2))).toBe('open');
    expect(compartmentStatus(summarize(c3))).toBe('fault');
    // a device that is not installed does not count
    expect(summarize(c4)).toEqual({ installed: 2, open: 0, closed: 2, locked: 0, fault: 0 });
    expect(compartmentStatus(summarize(c4))).toBe('closed');
  });
});
