import { describe, expect, it } from 'vitest';
import { headerWidth } from './HeaderText';

describe('headerWidth', () => {
  it('widens a column to its header’s longest English word, never narrows it', () => {
    expect(headerWidth('Bluetooth', 86)).toBe(Math.ceil(9 * 8.6) + 48);
    expect(headerWidth('Broken at destination', 98)).toBe(Math.ceil(11 * 8.6) + 48);
    expect(headerWidth('Day', 104)).toBe(104);
    expect(headerWidth('蓝牙', 86)).toBe(86);
    expect(headerWidth('施封破坏（目的地）', 98)).toBe(98);
  });
});
