import { describe, expect, it } from 'vitest';
import type { SystemDetail } from '../../../api/settings';
import { changedSettings } from './SettingsForm';

const values = {
  timeZone: 'Asia/Shanghai', offlineMinutes: 10, parkingMinutes: 30, rawRetentionDays: 0, positionRetentionDays: 0, mapProvider: 'gaode', offlineTiles: '',
  faultSilentHours: 8, faultSensor: true,
};
const detail: SystemDetail = {
  ...values, amapKeySet: false, amapKeyMasked: '', defaults: { ...values, faultSilentHours: 0, faultSensor: false },
  retention: { everyMinutes: 60, last: null, nextAt: 0, rawCutoff: 0, posCutoff: 0 }, tileFiles: [], tiles: null,
};

describe('system settings form', () => {
  it('sends only what changed, the automatic faults included (D82)', () => {
    expect(changedSettings(detail, { ...values })).toEqual({});
    expect(changedSettings(detail, { ...values, faultSilentHours: 0, faultSensor: false })).toEqual({ faultSilentHours: 0, faultSensor: false });
    expect(changedSettings(detail, { ...values, offlineMinutes: 15, amapKey: ' abcdef123456 ' })).toEqual({ offlineMinutes: 15, amapKey: 'abcdef123456' });
  });
});
