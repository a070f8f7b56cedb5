import { describe, expect, it } from 'vitest';
import { fillText, rowKey, toRowFilters } from './rows';

describe('tankMonitor2VXE rows', () => {
  it('keys a row by car and compartment', () => {
    expect(rowKey({ carId: 12, no: 3 })).toBe('12/3');
  });
  it('formats the fill or dashes it', () => {
    expect(fillText(null)).toBe('—');
    expect(fillText(50)).toBe('50.0%');
  });
  it('turns form values into filters', () => {
    expect(toRowFilters({ plate: '  沪A ', product: 0, fillMin: 0, openOnly: false, onlineOnly: true, groupId: undefined })).toEqual({
      plate: '沪A',
      product: 0,
      fillMin: 0,
      onlineOnly: true,
    });
    expect(toRowFilters({ plate: '   ', product: -1 })).toEqual({ product: -1 });
  });
});
