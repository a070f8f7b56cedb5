import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Car, Sim, Terminal } from '../../../api/fleet';
import type { Group, Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import TerminalPage from '.';

const base = { groupId: 2, groupName: 'East', manufacturer: 'Acme', model: 'T1', protocol: 2019, authCode: '', status: 1, remark: '', createdAt: '2026-01-02 03:04:05' };
const terminals: Terminal[] = [
  { ...base, id: 9, phone: '013800001111', deviceId: 'DEV1', carId: 5, plate: 'HU-A12345', simId: 3, msisdn: '14400001111', firmware: 'TW-808T 2.1.0',
    attrs: { type: 0x42, maker: '70111', model: 'TW-808T', device: 'DEV1', iccid: '89860400000024011000', hardware: 'HW 2.0', firmware: 'TW-808T 2.1.1', gnss: 3, comm: 32, at: Date.UTC(2026, 0, 2, 0, 0, 0), askedAt: 0 } },
  { ...base, id: 10, phone: '013800002222', deviceId: 'DEV2', carId: null, plate: null, simId: null, msisdn: null, firmware: '', attrs: null },
];

const api = vi.hoisted(() => ({
  pageTerminals: vi.fn(),
  insertTerminal: vi.fn(),
  updateTerminal: vi.fn(),
  deleteTerminals: vi.fn(),
  bindTerminal: vi.fn(),
  terminalBindings: vi.fn(),
  pageCars: vi.fn(),
  pageSims: vi.fn(),
  queryTerminalAttributes: vi.fn(),
}));
vi.mock('../../../api/fleet', async (orig) => ({ ...(await orig<typeof import('../../../api/fleet')>()), ...api }));
vi.mock('../../../api/group', () => ({
  groupTrees: vi.fn(async (): Promise<Group[]> => [
    { id: 1, parentId: null, name: 'Top', code: 'G1', contact: '', phone: '', address: '', remark: '', title: '', logo: '', theme: '', children: [
      { id: 2, parentId: 1, name: 'East', code: 'G2', contact: '', phone: '', address: '', remark: '', title: '', logo: '', theme: '', children: [] },
    ] },
  ]),
}));

const ALL = ['add', 'edit', 'delete', 'bind', 'export'];
const SAVE = /保\s*存/;

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageTerminals.mockResolvedValue({ list: terminals, total: 2, pageNum: 1, pageSize: 10 } satisfies Page<Terminal>);
  api.pageCars.mockResolvedValue({ list: [{ id: 5, plate: 'HU-A12345', terminalId: 9, terminalPhone: '013800001111' }, { id: 6, plate: 'SU-B54321', terminalId: null, terminalPhone: '' }] as Car[], total: 2, pageNum: 1, pageSize: 500 });
  api.pageSims.mockResolvedValue({ list: [{ id: 3, msisdn: '14400001111', terminalId: 9, terminalPhone: '013800001111' }] as Sim[], total: 1, pageNum: 1, pageSize: 500 });
});

describe('terminalVXE page', { timeout: 60_000 }, () => {
  it('filters and sorts by the firmware version', async () => {
    renderPage(<TerminalPage />, 'terminalVXE', []);
    await screen.findByText('013800001111');
    fireEvent.change(screen.getByTestId('firmware-filter'), { target: { value: '2.1' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(api.pageTerminals).toHaveBeenLastCalledWith(expect.objectContaining({ firmware: '2.1' })));
    fireEvent.click(screen.getByRole('columnheader', { name: /升级固件版本/ }));
    await waitFor(() => expect(api.pageTerminals).toHaveBeenLastCalledWith(expect.objectContaining({ sortField: 'firmware' })));
  });

  it('lists terminals with bound plate and SIM; hides unauthorised buttons', async () => {
    renderPage(<TerminalPage />, 'terminalVXE', []);
    expect(await screen.findByText('013800001111')).toBeTruthy();
    expect(screen.getByText('HU-A12345')).toBeTruthy();
    expect(screen.getByText('14400001111')).toBeTruthy();
    // the firmware of the last successful upgrade; a terminal never upgraded says so
    expect(within(screen.getByText('013800001111').closest('tr')!).getByText('TW-808T 2.1.0')).toBeTruthy();
    expect(within(screen.getByText('013800002222').closest('tr')!).getByText('未升级')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增终端/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '绑定' })).toBeNull();
  });

  it('validates and inserts a terminal with the defaults', async () => {
    api.insertTerminal.mockResolvedValue(terminals[1]);
    renderPage(<TerminalPage />, 'terminalVXE', ALL);
    await screen.findByText('013800001111');
    fireEvent.click(screen.getByRole('button', { name: /新增终端/ }));
    const dialog = await screen.findByRole('dialog');
    // the gateway registers a terminal only with the ID it holds (docs/PROTOCOL.md §6)
    expect(within(dialog).getByText(/未填写的终端无法注册/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect(await within(dialog).findByText('终端手机号不能为空')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('终端手机号'), { target: { value: '13a' } });
    fireEvent.change(within(dialog).getByLabelText('设备ID'), { target: { value: 'DEV-1' } });
    expect(await within(dialog).findByText('终端手机号应为1到20位数字')).toBeTruthy();
    expect(await within(dialog).findByText(/设备ID应为/)).toBeTruthy();
    expect(api.insertTerminal).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('终端手机号'), { target: { value: ' 013800003333 ' } });
    fireEvent.change(within(dialog).getByLabelText('设备ID'), { target: { value: 'DEV3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.insertTerminal).toHaveBeenCalledTimes(1));
    expect(api.insertTerminal).toHaveBeenCalledWith({
      groupId: 1, phone: '013800003333', deviceId: 'DEV3', manufacturer: '', model: '', protocol: 2019, authCode: '', status: 1, remark: '',
    });
  });

  it('binds a car and unbinds the SIM card', async () => {
    api.bindTerminal.mockResolvedValue(terminals[0]);
    renderPage(<TerminalPage />, 'terminalVXE', ALL);
    const row = (await screen.findByText('013800001111')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '绑定' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(api.pageCars).toHaveBeenCalledWith(expect.objectContaining({ groupId: 2 })));
    expect(api.pageSims).toHaveBeenCalledWith(expect.objectContaining({ groupId: 2 }));
    const [carSelect] = within(dialog).getAllByRole('combobox');
    fireEvent.mouseDown(carSelect);
    fireEvent.click(await screen.findByTitle('SU-B54321'));
    const clears = dialog.querySelectorAll('.ant-select-clear');
    fireEvent.mouseDown(clears[clears.length - 1]);
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.bindTerminal).toHaveBeenCalledWith(9, 6, null));
  });

  it('deletes a row only after confirmation, with its id', async () => {
    api.deleteTerminals.mockResolvedValue(1);
    renderPage(<TerminalPage />, 'terminalVXE', ALL);
    const row = (await screen.findByText('013800002222')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('确定要删除该数据吗？')).toBeTruthy();
    expect(api.deleteTerminals).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.deleteTerminals).toHaveBeenCalledWith([10]));
  });

  it('shows the binding history', async () => {
    api.terminalBindings.mockResolvedValue([{ id: 1, terminalId: 9, carId: 5, plate: 'HU-A12345', simId: 3, msisdn: '14400001111', boundAt: '2026-01-02 03:04:05', unboundAt: null, userId: 1, userName: 'admin' }]);
    renderPage(<TerminalPage />, 'terminalVXE', ALL);
    const row = (await screen.findByText('013800001111')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '绑定记录' }));
    expect(await screen.findByText('当前')).toBeTruthy();
    expect(api.terminalBindings).toHaveBeenCalledWith(9);
  });
});

describe('terminalVXE: the terminal\'s own attributes (0x0107, D90)', { timeout: 60_000 }, () => {
  it('shows the reported firmware beside the upgraded one, hardware, model and ICCID; 未上报 before any answer', async () => {
    renderPage(<TerminalPage />, 'terminalVXE', []);
    const row = (await screen.findByText('013800001111')).closest('tr')!;
    expect(within(row).getByText('TW-808T 2.1.0')).toBeTruthy(); // upgraded through the platform
    expect(within(row).getByTestId('reported-firmware').textContent).toBe('TW-808T 2.1.1'); // what the terminal says
    expect(within(row).getByText('HW 2.0')).toBeTruthy();
    expect(within(row).getByText('89860400000024011000')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /自报固件版本/ })).toBeTruthy();
    const never = screen.getByText('013800002222').closest('tr')!;
    expect(within(never).getAllByText('未上报')).toHaveLength(4);
    expect(within(row).queryByTestId('query-attrs')).toBeNull(); // no edit code, no query
  });

  it('asks the terminal now and reloads the list', async () => {
    api.queryTerminalAttributes.mockResolvedValue(terminals[0]);
    renderPage(<TerminalPage />, 'terminalVXE', ALL);
    const row = (await screen.findByText('013800002222')).closest('tr')!;
    const calls = api.pageTerminals.mock.calls.length;
    fireEvent.click(within(row).getByTestId('query-attrs'));
    await waitFor(() => expect(api.queryTerminalAttributes).toHaveBeenCalledWith(10));
    expect(await screen.findByText('终端已应答：固件 TW-808T 2.1.1，硬件 HW 2.0')).toBeTruthy();
    await waitFor(() => expect(api.pageTerminals.mock.calls.length).toBeGreaterThan(calls));
  });
});
