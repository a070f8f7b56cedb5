import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandRow, PositionRow, RawFrame, TableRow } from '../../../api/history';
import { renderPage } from '../../access/testing';
import { calledWith, carPage, filterForm, page, pickVehicle, search, SLOW } from '../history/testing';
import QueryTablePage from '.';

const api = vi.hoisted(() => ({ hbaseTable: vi.fn(), rawHistoryRecord: vi.fn(), searchCars: vi.fn() }));
vi.mock('../../../api/history', async (orig) => ({ ...(await orig<typeof import('../../../api/history')>()), ...api }));

const position: PositionRow = {
  time: '2026-03-01 16:00:00', receivedAt: '2026-03-01 16:00:02', carId: 5, plate: '沪A·6N337', terminalId: 5, lat: 31.230416, lng: 121.473701,
  altitude: 4, speed: 65.5, direction: 90, alarm: 2, status: 3, alarms: ['超速报警'], states: ['ACC 开', '已定位'], mileage: 100.5, fuel: null,
  signal: 25, satellites: 11, blind: false,
};
const frame: RawFrame = {
  id: 77, time: '2026-03-01 16:00:02', carId: 5, plate: '沪A·6N337', terminalId: 5, phone: '013852600104', msgId: '0x0200', msgName: '位置信息汇报',
  serial: 3, direction: 'up', hex: '7E0200ABCD7E',
};
const command: CommandRow = {
  id: 9, carId: 5, plate: '沪A·6N337', terminalId: 5, phone: '013852600104', kind: 'unlock', msgId: '0x8900', serial: 44, params: '{"mask":0}',
  userId: 1, status: 'timeout', result: null, reply: '', createdAt: '2026-03-01 16:01:00', doneAt: null,
};

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.searchCars.mockResolvedValue(carPage);
  api.hbaseTable.mockImplementation((q: { table: string }) =>
    Promise.resolve(page<TableRow>(q.table === 'positions' ? [position] : q.table === 'rawFrames' ? [frame] : q.table === 'commands' ? [command] : [])),
  );
  api.rawHistoryRecord.mockResolvedValue(page([{ ...frame, decoded: { header: { msgId: '0x0200', version: '2013', phone: '13852600104', serial: 3, bodyLength: 2, encryption: 0 }, body: { hex: 'ABCD' } } }]));
});

async function chooseTable(label: string) {
  fireEvent.mouseDown(filterForm().querySelector('[data-testid="table-select"] .ant-select-selector, .ant-select[data-testid="table-select"] .ant-select-selector')!);
  fireEvent.click(await screen.findByTitle(label, {}, SLOW));
}

describe('raw store administration page', { timeout: 60_000 }, () => {
  it('reads positions of the chosen vehicle and shows every field of a row', async () => {
    renderPage(<QueryTablePage />, 'queryTable', []);
    expect(await screen.findByText('请选择车辆或输入终端手机号后查询', {}, SLOW)).toBeTruthy();
    await pickVehicle('沪A·6N337');
    search();
    await calledWith(api.hbaseTable, { table: 'positions', carId: 5, pageNum: 1 });
    expect(await screen.findByText('121.473701, 31.230416', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('超速报警')).toBeTruthy();
    fireEvent.click(screen.getByTestId('row-detail'));
    const drawer = await screen.findByRole('dialog', {}, SLOW);
    expect(within(drawer).getByText('receivedAt')).toBeTruthy();
    expect(within(drawer).getByText('2026-03-01 16:00:02')).toBeTruthy();
  });

  it('lists commands with translated status', async () => {
    renderPage(<QueryTablePage />, 'queryTable', []);
    await chooseTable('下发指令');
    fireEvent.change(await screen.findByTestId('phone-input', {}, SLOW), { target: { value: '013852600104' } });
    search();
    await calledWith(api.hbaseTable, { table: 'commands', phone: '013852600104' });
    expect(await screen.findByText('超时', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('开锁')).toBeTruthy();
  });

  it('opens a raw frame with its bytes and its decoded form from the raw-data call', async () => {
    renderPage(<QueryTablePage />, 'queryTable', []);
    await chooseTable('原始报文');
    await pickVehicle('沪A·6N337');
    search();
    expect(await screen.findByText('0x0200 位置信息汇报', {}, SLOW)).toBeTruthy();
    fireEvent.click(screen.getByTestId('row-detail'));
    expect(await screen.findByTestId('drawer-hex', {}, SLOW)).toBeTruthy();
    await calledWith(api.rawHistoryRecord, { carId: 5, msgId: '0x0200', startTime: '2026-03-01 16:00:02', endTime: '2026-03-01 16:00:03' });
    expect(await screen.findByTestId('decoded-frame', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('AB CD')).toBeTruthy();
  });
});
