import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlarmType, ControlView } from '../../../api/alarm';
import { renderPage } from '../../access/testing';
import { SLOW } from '../../manager/history/testing';
import ControlModePage from '.';

const api = vi.hoisted(() => ({ alarmTypes: vi.fn(), getControl: vi.fn(), saveControl: vi.fn(), deleteControl: vi.fn() }));
const groups = vi.hoisted(() => ({ groupTrees: vi.fn() }));
vi.mock('../../../api/alarm', async (orig) => ({ ...(await orig<typeof import('../../../api/alarm')>()), ...api }));
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), ...groups }));

const types: AlarmType[] = [
  { code: 'abnormalUnload', sort: 1, level: 1, group: 'safety', enabled: true, push: true, name: '异常卸油', groupName: '安全类' },
  { code: 'speeding', sort: 5, level: 3, group: 'driving', enabled: true, push: false, name: '超速', groupName: '驾驶类' },
];
const inherited: ControlView = {
  own: null,
  effective: { watched: ['abnormalUnload', 'speeding'], speedLimit: 80, classSpeed: {}, parkingMinutes: 120, offlineMinutes: 30, levelDropLitres: 50 },
  source: 'group',
  sourceId: 1,
};

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.alarmTypes.mockResolvedValue(types);
  api.getControl.mockResolvedValue(inherited);
  api.saveControl.mockImplementation(async (_t, s) => ({ ...inherited, own: { ...s, id: 1, kind: 'group', targetId: 3, updatedAt: '' }, effective: s }));
  groups.groupTrees.mockResolvedValue([{ id: 1, name: '中油运输集团', children: [{ id: 3, name: '华东分公司', children: [] }] }]);
});

describe('control mode', { timeout: 60_000 }, () => {
  it('shows a group\'s inherited setting and saves its own', async () => {
    renderPage(<ControlModePage />, 'controlMode', []);
    // it opens on the operator's own group (the test session's group 1)
    await waitFor(() => expect(api.getControl).toHaveBeenCalledWith({ groupId: 1 }), SLOW);
    fireEvent.mouseDown(document.querySelector('[data-testid="control-group"] .ant-select-selector, .ant-select[data-testid="control-group"] .ant-select-selector')!);
    fireEvent.click(await screen.findByTitle('华东分公司', {}, SLOW));
    await waitFor(() => expect(api.getControl).toHaveBeenLastCalledWith({ groupId: 3 }), SLOW);
    expect(await screen.findByText('继承自 中油运输集团', {}, SLOW)).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: '超速' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: '超速' }));
    fireEvent.change(screen.getByDisplayValue('80'), { target: { value: '70' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    // the confirmation names where it applies and each change before anything is saved
    const change = await screen.findByTestId('control-change', {}, SLOW);
    expect(change.textContent).toContain('华东分公司');
    expect(within(change).getByText('默认限速：80 km/h → 70 km/h')).toBeTruthy();
    expect(within(change).getByText('取消布控：超速')).toBeTruthy();
    expect(api.saveControl).not.toHaveBeenCalled();
    fireEvent.click(within(change.closest('.ant-modal') as HTMLElement).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.saveControl).toHaveBeenCalled(), SLOW);
    const [target, s] = api.saveControl.mock.calls[0];
    expect(target).toEqual({ groupId: 3 });
    expect(s).toMatchObject({ watched: ['abnormalUnload'], speedLimit: 70, parkingMinutes: 120, classSpeed: {} });
    expect(await screen.findByText('本级设置', {}, SLOW)).toBeTruthy();
  });

  it('names vehicle-class limits and newly watched types in the confirmation', async () => {
    const { describeControlChange } = await import('./changes');
    const i18n = (await import('../../../i18n')).default;
    await i18n.changeLanguage('zh-CN');
    const before = inherited.effective;
    const after = { ...before, watched: ['abnormalUnload', 'speeding', 'offline'], classSpeed: { 重型罐式货车: 60 } };
    expect(describeControlChange(before, after, (c) => ({ offline: '离线' })[c] ?? c, i18n.t)).toEqual(['重型罐式货车：无 → 60 km/h', '新增布控：离线']);
    expect(describeControlChange(before, before, (c) => c, i18n.t)).toEqual([]);
  });
});
