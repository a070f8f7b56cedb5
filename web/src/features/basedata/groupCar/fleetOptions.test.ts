import { describe, expect, it } from 'vitest';
import { canonicalPlate, PLATE_RE } from './fleetOptions';

describe('canonicalPlate', () => {
  it.each([
    ['苏A12345', '苏A12345'],
    ['苏A·12345', '苏A·12345'],
    ['苏a 12345', '苏A·12345'],
    ['苏A・12345', '苏A·12345'],
    ['苏A • 12345', '苏A·12345'],
    ['苏A.12345', '苏A·12345'],
    [' 苏ａ１２３４５ ', '苏A12345'],
    ['·苏A12345·', '苏A12345'],
  ])('%s → %s (the server stores the same)', (typed, stored) => {
    expect(canonicalPlate(typed)).toBe(stored);
    expect(PLATE_RE.test(canonicalPlate(typed))).toBe(true);
  });

  it('still refuses what is not a plate', () => {
    expect(PLATE_RE.test(canonicalPlate('ABC123'))).toBe(false);
    expect(PLATE_RE.test(canonicalPlate('苏A1·2345'))).toBe(false);
  });
});
