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
  it('lists the types with level and push, and switches push on for one after a confirmation naming the change', async () => {
    renderPage(<PoliceTypePage />, 'policeType', ['edit']);
    const row = (await screen.findByText('超速', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('III级')).toBeTruthy();
    fireEvent.click(within(row).getByRole('switch', { name: '超速 实时推送' }));
    const change = await screen.findByTestId('type-change', {}, SLOW);
    expect(within(change).getByText('「超速」的实时推送：否 → 是')).toBeTruthy();
    expect(within(change).getByText('报警类型对全平台所有组织生效。')).toBeTruthy();
    expect(api.updateAlarmType).not.toHaveBeenCalled();
    fireEvent.click(within(change.closest('.ant-modal') as HTMLElement).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.updateAlarmType).toHaveBeenCalledWith({ code: 'speeding', level: 3, group: 'driving', enabled: true, push: true }), SLOW);
    await waitFor(() => expect(api.alarmTypes).toHaveBeenCalledTimes(2), SLOW);
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

  it('cancelling the confirmation changes nothing', async () => {
    renderPage(<PoliceTypePage />, 'policeType', ['edit']);
    const row = (await screen.findByText('超速', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(row).getByRole('switch', { name: '超速 启用' }));
    const change = await screen.findByTestId('type-change', {}, SLOW);
    expect(within(change).getByText('「超速」的启用：是 → 否')).toBeTruthy();
    fireEvent.click(within(change.closest('.ant-modal') as HTMLElement).getByRole('button', { name: /取\s*消/ }));
    expect(api.updateAlarmType).not.toHaveBeenCalled();
    expect((within(row).getByRole('switch', { name: '超速 启用' }) as HTMLElement).getAttribute('aria-checked')).toBe('true');
  });

  it('without policeType-edit (a dispatcher) the types are read, never changed: no switches, no selects', async () => {
    renderPage(<PoliceTypePage />, 'policeType', []);
    const row = (await screen.findByText('超速', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('III级')).toBeTruthy();
    expect(within(row).getByText('驾驶类')).toBeTruthy();
    expect(within(row).queryByRole('switch')).toBeNull();
    expect(within(row).queryByRole('combobox')).toBeNull();
    expect(screen.getByText('报警类型是全平台的设置，只有平台管理员可以修改。')).toBeTruthy();
  });
});
