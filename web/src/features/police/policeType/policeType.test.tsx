import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlarmType } from '../../../api/alarm';
import { renderPage } from '../../access/testing';
import { SLOW } from '../../manager/history/testing';
import PoliceTypePage from '.';

const api = vi.hoisted(() => ({ alarmTypes: vi.fn(), updateAlarmType: vi.fn() }));
vi.mock('../../../api/alarm', async (orig) => ({ ...(await orig<typeof import('../../../api/alarm')>()), ...api }));

const types: AlarmType[] = [
  { code: 'abnormalUnload', sort: 1, level: 1, group: 'safety', enabled: true, push: true, name: '异常卸油', groupName: '安全类' },
  { code: 'speeding', sort: 5, level: 3, group: 'driving', enabled: true, push: false, name: '超速', groupName: '驾驶类' },
];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.alarmTypes.mockResolvedValue(types);
  api.updateAlarmType.mockImplementation(async (t: AlarmType) => t);
});

describe('alarm types (policeType)', { timeout: 60_000 }, () => {
  it('lists the types with level and push, and switches push on for one', async () => {
    renderPage(<PoliceTypePage />, 'policeType', ['edit']);
    const row = (await screen.findByText('超速', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('III级')).toBeTruthy();
    fireEvent.click(within(row).getByRole('switch', { name: '超速 实时推送' }));
    await waitFor(() => expect(api.updateAlarmType).toHaveBeenCalledWith({ code: 'speeding', level: 3, group: 'driving', enabled: true, push: true }), SLOW);
    await waitFor(() => expect(api.alarmTypes).toHaveBeenCalledTimes(2), SLOW);
  });

  it('without policeType-edit (a dispatcher) the types are shown but cannot be changed', async () => {
    renderPage(<PoliceTypePage />, 'policeType', []);
    const row = (await screen.findByText('超速', {}, SLOW)).closest('tr')!;
    const push = within(row).getByRole('switch', { name: '超速 实时推送' });
    expect(push.hasAttribute('disabled')).toBe(true);
    fireEvent.click(push);
    expect(api.updateAlarmType).not.toHaveBeenCalled();
  });

  it('searches by name', async () => {
    renderPage(<PoliceTypePage />, 'policeType', []);
    await screen.findByText('超速', {}, SLOW);
    const box = screen.getByPlaceholderText('按名称搜索');
    fireEvent.change(box, { target: { value: '卸油' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(screen.queryByText('超速')).toBeNull(), SLOW);
    expect(screen.getByText('异常卸油')).toBeTruthy();
  });
});
