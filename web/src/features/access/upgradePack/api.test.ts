import { describe, expect, it } from 'vitest';
import { anyActive, canRetry, progressPct, sizeText, stateKey } from './api';

describe('upgradePack logic', () => {
  it('shows progress from acknowledged sub-packages, full once acknowledged', () => {
    expect(progressPct({ status: 1, acked: 0, total: 0 })).toBe(0);
    expect(progressPct({ status: 2, acked: 101, total: 202 })).toBe(50);
    expect(progressPct({ status: 2, acked: 201, total: 202 })).toBe(99);
    expect(progressPct({ status: 4, acked: 0, total: 0 })).toBe(100);
  });
  it('names an acknowledgement by the terminal result', () => {
    expect(stateKey({ status: 4, result: 0 })).toBe('result.0');
    expect(stateKey({ status: 4, result: 2 })).toBe('result.2');
    expect(stateKey({ status: 5, result: -1 })).toBe('status.5');
  });
  it('retries failures only', () => {
    expect(canRetry({ status: 5, result: -1 })).toBe(true);
    expect(canRetry({ status: 4, result: 1 })).toBe(true);
    expect(canRetry({ status: 4, result: 0 })).toBe(false);
    expect(canRetry({ status: 2, result: -1 })).toBe(false);
  });
  it('keeps refreshing while a job moves', () => {
    expect(anyActive([{ status: 4 }, { status: 3 }])).toBe(true);
    expect(anyActive([{ status: 4 }, { status: 5 }])).toBe(false);
  });
  it('formats sizes', () => {
    expect(sizeText(512)).toBe('512 B');
    expect(sizeText(204800)).toBe('200.0 KB');
    expect(sizeText(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});
