import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlarmRecord, AlarmType } from '../../../api/alarm';
import { renderPage } from '../../access/testing';
import { calledWith, page, search, SLOW } from '../../manager/history/testing';
import PoliceMsgPage from '.';

const api = vi.hoisted(() => ({ findAlarms: vi.fn(), dealAlarms: vi.fn(), alarmTypes: vi.fn() }));
vi.mock('../../../api/alarm', async (orig) => ({ ...(await orig<typeof import('../../../api/alarm')>()), ...api }));
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), groupTrees: vi.fn().mockResolvedValue([]) }));
const geo = vi.hoisted(() => ({ getAddress: vi.fn() }));
vi.mock('../../../api/geocode', () => geo);
vi.mock('../../../components/map/MapView', () => ({ MapView: () => <div data-testid="alarm-map" />, useTileSource: () => 'none' }));

const alarms: AlarmRecord[] = [
  { id: 9, carId: 5, carNumber: '沪A·6N337', groupId: 3, type: 'sealBroken', typeName: '施封破坏', level: 1, startTime: '2026-03-01 10:00:00', endTime: null,
    lng: 121.47, lat: 31.23, speed: 42.5, detail: '', state: 0, handlerName: '', handledTime: null, remark: '' },
  { id: 8, carId: 6, carNumber: '沪B·12345', groupId: 3, type: 'speeding', typeName: '超速', level: 3, startTime: '2026-03-01 09:00:00', endTime: '2026-03-01 09:05:00',
    lng: null, lat: null, speed: 95, detail: '限速 80 km/h，最高 95.0 km/h', state: 1, handlerName: 'dispatcher', handledTime: '2026-03-01 09:30:00', remark: '已提醒' },
];
const types: AlarmType[] = [
  { code: 'sealBroken', sort: 2, level: 1, group: 'safety', enabled: true, push: true, name: '施封破坏', groupName: '安全类' },
  { code: 'speeding', sort: 5, level: 3, group: 'driving', enabled: true, push: false, name: '超速', groupName: '驾驶类' },
];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.findAlarms.mockResolvedValue(page(alarms));
  api.alarmTypes.mockResolvedValue(types);
  api.dealAlarms.mockResolvedValue({ count: 2 });
  geo.getAddress.mockReset().mockResolvedValue('上海市黄浦区人民大道 200 号');
});

describe('alarm list (policeMsg)', { timeout: 60_000 }, () => {
  it('lists the alarms of the last 7 days with coloured level tags and states', async () => {
    renderPage(<PoliceMsgPage />, 'policeMsg', []);
    await calledWith(api.findAlarms, { pageNum: 1, pageSize: 10 });
    const q = api.findAlarms.mock.calls[0][0] as Record<string, unknown>;
    expect(q.startTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const seal = (await screen.findByText('沪A·6N337', {}, SLOW)).closest('tr')!;
    expect(within(seal).getByText('I级').className).toContain('red');
    expect(within(seal).getByText('未处理')).toBeTruthy();
    expect(within(seal).getByText('持续中')).toBeTruthy();
    const speed = screen.getByText('沪B·12345').closest('tr')!;
    expect(within(speed).getByText('III级')).toBeTruthy();
    expect(within(speed).getByText('已处理')).toBeTruthy();
  });

  it('filters by level and type', async () => {
    renderPage(<PoliceMsgPage />, 'policeMsg', []);
    await screen.findByText('沪A·6N337', {}, SLOW);
    const form = document.querySelector<HTMLElement>('form.tw-filter-form')!;
    fireEvent.change(within(form).getAllByRole('textbox')[0], { target: { value: ' 6N337 ' } });
    search();
    await calledWith(api.findAlarms, { carNumber: '6N337' });
  });

  it('processes the selected alarms together with a remark', async () => {
    renderPage(<PoliceMsgPage />, 'policeMsg', []);
    await screen.findByText('沪A·6N337', {}, SLOW);
    for (const plate of ['沪A·6N337', '沪B·12345']) fireEvent.click(within(screen.getByText(plate).closest('tr')!).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /批量处理 \(2\)/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.click(within(dialog).getByLabelText('待进一步处理'));
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '已通知司机' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.dealAlarms).toHaveBeenCalledWith([9, 8], 2, '已通知司机'), SLOW);
  });

  it('shows an alarm with its position, or 未定位', async () => {
    renderPage(<PoliceMsgPage />, 'policeMsg', []);
    const row = (await screen.findByText('沪B·12345', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /详\s*情/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect(within(dialog).getAllByText('未定位').length).toBeGreaterThan(0);
    expect(within(dialog).getByText('限速 80 km/h，最高 95.0 km/h')).toBeTruthy();
    fireEvent.click(within(dialog).getAllByRole('button', { name: /close|关\s*闭/i })[0]);
    const seal = screen.getByText('沪A·6N337').closest('tr')!;
    fireEvent.click(within(seal).getByRole('button', { name: /详\s*情/ }));
    expect(await screen.findByTestId('alarm-map', {}, SLOW)).toBeTruthy();
  });

  it('shows the address of the alarm, not its coordinates, and processes it from its details', async () => {
    renderPage(<PoliceMsgPage />, 'policeMsg', []);
    const seal = (await screen.findByText('沪A·6N337', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(seal).getByRole('button', { name: /详\s*情/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect((await within(dialog).findByTestId('alarm-address', {}, SLOW)).textContent).toBe('上海市黄浦区人民大道 200 号');
    expect(geo.getAddress).toHaveBeenCalledWith(121.47, 31.23);
    expect(within(dialog).queryByText(/121\.47/)).toBeNull();
    fireEvent.click(within(dialog).getByTestId('alarm-detail-deal'));
    const deal = (await screen.findByLabelText('待进一步处理', {}, SLOW)).closest<HTMLElement>('[role="dialog"]')!;
    fireEvent.click(within(deal).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.dealAlarms).toHaveBeenCalledWith([9], 1, ''), SLOW);
    await waitFor(() => expect(api.findAlarms.mock.calls.length).toBeGreaterThan(1), SLOW); // the list reloads
  });
});
