import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RawFrame } from '../../../api/history';
import { renderPage } from '../../access/testing';
import { calledWith, carPage, page, pickVehicle, search, SLOW } from '../history/testing';
import HistoryRecordPage from '.';
import { bodyShape, fieldRows, spacedHex, valueText } from './decoded';

const api = vi.hoisted(() => ({ rawHistoryRecord: vi.fn(), searchCars: vi.fn() }));
vi.mock('../../../api/history', async (orig) => ({ ...(await orig<typeof import('../../../api/history')>()), ...api }));

const location = {
  time: '2026-03-01 16:00:00', lat: 31.230416, lng: 121.473701, altitude: 4, speed: 65.5, direction: 90,
  alarm: '0x00000002', alarms: ['超速报警'], status: '0x00000303', states: ['ACC 开', '已定位'], load: '满载',
  items: [{ id: '0x01', name: '里程（km）', value: 12345.6, hex: '0001E240' }, { id: '0xE1', name: '罐体状态', hex: '0103' }],
  tank: {
    compartments: [{ no: 1, devices: [
      { name: '小人孔盖', installed: true, open: false, locked: true, fault: false },
      { name: '人孔盖', installed: true, open: false, locked: true, fault: false },
      { name: '卸油阀', installed: true, open: true, locked: false, fault: false },
      { name: '底阀', installed: true, open: false, locked: false, fault: true },
    ] }],
    lockState: '1'.repeat(4) + '0'.repeat(124), seal: 2, sealName: '铅封破坏',
    levels: [{ compartment: 1, levelMm: 1500, volumeL: 12000, temperature: 21.5 }],
    locks: [
      { serial: 'TWL00001-2', event: 1, eventName: '开锁', method: 2, methodName: '手机蓝牙', compartment: 2, device: 1, deviceName: '人孔盖', battery: 76, time: '2026-03-01 15:58:30' },
      { serial: 'TWL00001-1', event: 3, eventName: '破坏报警', method: 0, methodName: '无', compartment: 1, device: 2, deviceName: '卸油阀', battery: null, time: '2026-03-01 15:59:00' },
    ],
  },
  // a slightly wrong report (docs/PROTOCOL.md §1): the good items are shown with the dropped ones named
  tankError: 'item 2 (0xE2): tank: bad extension item: probe of compartment 9',
  cut: '0x0200: jt808: data too short: entry 3 (ID 0xe3) declares 3 bytes, 1 arrived',
};
const frames: RawFrame[] = [
  { id: 3, time: '2026-03-01 16:00:02', carId: 5, plate: '沪A·6N337', terminalId: 5, phone: '013852600104', msgId: '0x0200', msgName: '位置信息汇报', serial: 3,
    direction: 'up', hex: '7E0200ABCD7E', decoded: { header: { msgId: '0x0200', version: '2013', phone: '13852600104', serial: 3, bodyLength: 91, encryption: 0 }, body: location } },
  { id: 2, time: '2026-03-01 16:00:01', carId: 5, plate: '沪A·6N337', terminalId: 5, phone: '013852600104', msgId: '0x8001', msgName: '平台通用应答', serial: 9,
    direction: 'down', hex: '7E8001EF017E', decoded: { header: { msgId: '0x8001', version: '2013', phone: '13852600104', serial: 9, bodyLength: 5, encryption: 0 }, body: { serial: 3, replyId: 512, result: 0, platform: true } } },
  { id: 1, time: '2026-03-01 16:00:00', carId: 5, plate: '沪A·6N337', terminalId: 5, phone: '013852600104', msgId: '0x0200', msgName: '位置信息汇报', serial: 10,
    direction: 'up', hex: '7E02007D7E', decoded: { error: 'jt808: bad checksum' } },
];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.searchCars.mockResolvedValue(carPage);
  api.rawHistoryRecord.mockResolvedValue(page(frames));
});

describe('raw data page', { timeout: 60_000 }, () => {
  it('waits for a vehicle, then lists its frames with names, directions and hex', async () => {
    renderPage(<HistoryRecordPage />, 'historyRecordVXE', []);
    expect(await screen.findByText('请选择车辆或输入终端手机号后查询', {}, SLOW)).toBeTruthy();
    expect(api.rawHistoryRecord).not.toHaveBeenCalled();
    await pickVehicle('沪A·6N337');
    search();
    await calledWith(api.rawHistoryRecord, { carId: 5, pageNum: 1, pageSize: 10 });
    const q = api.rawHistoryRecord.mock.calls[0][0] as Record<string, string>;
    expect(q.startTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(q.phone).toBeUndefined();
    expect(await screen.findByText('7E0200ABCD7E', {}, SLOW)).toBeTruthy();
    expect(screen.getAllByText(/位置信息汇报/).length).toBe(2);
    expect(screen.getByText('下行')).toBeTruthy();
    expect(screen.getByTestId('frame-error')).toBeTruthy();
    expect(screen.getByTestId('list-export')).toBeTruthy();
  });

  it('filters by terminal phone and a message id typed in short hex', async () => {
    renderPage(<HistoryRecordPage />, 'historyRecordVXE', []);
    const phone = await screen.findByTestId('phone-input', {}, SLOW);
    fireEvent.change(phone, { target: { value: ' 13852600104 ' } });
    fireEvent.change(screen.getByRole('combobox', { name: /消息 ID/ }), { target: { value: '200' } });
    search();
    await calledWith(api.rawHistoryRecord, { phone: '13852600104', msgId: '0x0200' });
  });

  it('expands a location frame into header, body, alarms, items and the tank', async () => {
    renderPage(<HistoryRecordPage />, 'historyRecordVXE', []);
    await pickVehicle('沪A·6N337');
    search();
    const row = (await screen.findByText('7E0200ABCD7E', {}, SLOW)).closest('tr')!;
    fireEvent.click(row.querySelector('.ant-table-row-expand-icon')!);
    const decoded = await screen.findByTestId('decoded-frame', {}, SLOW);
    expect(within(decoded).getByText('消息头')).toBeTruthy();
    expect(within(decoded).getByText('121.473701, 31.230416')).toBeTruthy();
    expect(within(decoded).getByText('超速报警')).toBeTruthy();
    expect(within(decoded).getByText('正东 (90°)')).toBeTruthy();
    expect(within(decoded).getByText('12345.6')).toBeTruthy();
    const tank = within(decoded).getByTestId('decoded-tank');
    expect(within(tank).getByText('铅封破坏')).toBeTruthy();
    expect(within(tank).getByText('1 号仓：1500 mm / 12000 L / 21.5 °C')).toBeTruthy();
    expect(within(tank).getAllByText('故障').length).toBe(1);
    expect(within(tank).getAllByText('打开').length).toBe(1);
    // item 0xE6: each lock event decoded (serial, event, method, where, battery, the lock's time)
    const locks = within(tank).getByTestId('decoded-locks');
    expect(within(locks).getByText('锁事件（0xE6）')).toBeTruthy();
    const opened = within(locks).getByText('TWL00001-2').closest('tr')!;
    for (const text of ['开锁', '手机蓝牙', '2 号仓 人孔盖', '76%', '2026-03-01 15:58:30']) expect(within(opened).getByText(text)).toBeTruthy();
    const tampered = within(locks).getByText('TWL00001-1').closest('tr')!;
    for (const text of ['破坏报警', '1 号仓 卸油阀', '未报告']) expect(within(tampered).getByText(text)).toBeTruthy();
    expect(within(decoded).getByText('部分罐体数据格式错误，已舍弃（其余照常显示）')).toBeTruthy();
    expect(within(decoded).getByText(/probe of compartment 9/)).toBeTruthy();
    const cut = within(decoded).getByTestId('decoded-cut');
    expect(within(cut).getByText('终端截断了最后一项，已舍弃（其余照常显示）')).toBeTruthy();
    expect(within(cut).getByText(/entry 3 \(ID 0xe3\) declares 3 bytes/)).toBeTruthy();
  });

  it('shows why a frame could not be decoded', async () => {
    renderPage(<HistoryRecordPage />, 'historyRecordVXE', []);
    await pickVehicle('沪A·6N337');
    search();
    const row = (await screen.findByText('7E02007D7E', {}, SLOW)).closest('tr')!;
    fireEvent.click(row.querySelector('.ant-table-row-expand-icon')!);
    expect(await screen.findByText('jt808: bad checksum', {}, SLOW)).toBeTruthy();
  });

  it('shows a failed query as an error', async () => {
    api.rawHistoryRecord.mockRejectedValue(new Error('查询时间跨度不能超过 31 天'));
    renderPage(<HistoryRecordPage />, 'historyRecordVXE', []);
    await pickVehicle('沪A·6N337');
    search();
    expect(await screen.findByText('查询时间跨度不能超过 31 天', {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(screen.getByText('请求失败')).toBeTruthy());
  });
});

describe('decoded body helpers', () => {
  it('tells the body forms apart', () => {
    expect(bodyShape(location).kind).toBe('location');
    expect(bodyShape({ type: 1, blind: true, items: [location] })).toMatchObject({ kind: 'batch', blind: true, items: [location] });
    expect(bodyShape({ type: 1, blind: false, items: [location], cut: 'entry 1 declares 48 bytes' })).toMatchObject({ kind: 'batch', cut: 'entry 1 declares 48 bytes' });
    expect(bodyShape({ serial: 4, location })).toMatchObject({ kind: 'controlReply', serial: 4 });
    expect(bodyShape({ type: '0xF1', hex: 'E1', tankError: 'bad' })).toMatchObject({ kind: 'passThrough', type: '0xF1', tankError: 'bad' });
    expect(bodyShape({ hex: '0102' })).toEqual({ kind: 'hex', hex: '0102' });
    expect(bodyShape(undefined)).toEqual({ kind: 'none' });
    expect(bodyShape({ serial: 3, replyId: 512, platform: true })).toEqual({
      kind: 'fields',
      rows: [{ key: 'serial', value: '3' }, { key: 'replyId', value: '512' }, { key: 'platform', value: 'true' }],
    });
  });

  it('flattens nested fields and formats values', () => {
    expect(fieldRows({ a: { b: 1, c: [1, 2] }, params: [{ id: 1, value: 'x' }], t: null })).toEqual([
      { key: 'a.b', value: '1' }, { key: 'a.c', value: '1, 2' }, { key: 'params.0.id', value: '1' }, { key: 'params.0.value', value: 'x' }, { key: 't', value: '' },
    ]);
    expect(valueText({ ad0: 1, ad1: 2 })).toBe('ad0=1, ad1=2');
    expect(spacedHex('7E0200A')).toBe('7E 02 00 A');
  });
});
