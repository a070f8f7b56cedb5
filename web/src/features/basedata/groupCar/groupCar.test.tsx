import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Car } from '../../../api/fleet';
import type { Group, Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import GroupCarPage from '.';

const base = {
  plateColour: '黄', driverPhone: '13800000000', owner: '', trailerNo: '', vehicleClass: '', loadingMethod: 1,
  smallManholeCoverNumber: 0, manholeCoverNumber: 0, oilDischargeValveNumber: 0, bottomValveNumber: 0, speedLimit: 80, parkingMinutes: 30,
  offlineMinutes: 10, safeVolume: 0, tankHeight: 0, probeLengths: [], vin: '', bodyColour: '', remark: '', groupId: 2, groupName: 'East',
  createdAt: '2026-01-02 03:04:05', updatedAt: '2026-01-02 03:04:05',
};
const cars: Car[] = [
  { ...base, id: 5, plate: 'HU-A12345', driverName: 'Wang', compartments: 3, fuelType: 1, terminalId: 9, terminalPhone: '013800001111' },
  { ...base, id: 6, plate: 'SU-B54321', driverName: 'Li', compartments: 2, fuelType: 3, terminalId: null, terminalPhone: '' },
];

const api = vi.hoisted(() => ({
  pageCars: vi.fn(),
  insertCar: vi.fn(),
  updateCar: vi.fn(),
  deleteCars: vi.fn(),
  moveCars: vi.fn(),
  carChannels: vi.fn(),
  saveCarChannels: vi.fn(),
}));
vi.mock('../../../api/fleet', async (orig) => ({ ...(await orig<typeof import('../../../api/fleet')>()), ...api }));
vi.mock('../../../api/group', () => ({
  groupTrees: vi.fn(async (): Promise<Group[]> => [
    { id: 1, parentId: null, name: 'Top', code: 'G1', contact: '', phone: '', address: '', remark: '', title: '', logo: '', theme: '', children: [
      { id: 2, parentId: 1, name: 'East', code: 'G2', contact: '', phone: '', address: '', remark: '', title: '', logo: '', theme: '', children: [] },
    ] },
  ]),
}));

const ALL = ['add', 'edit', 'delete', 'move', 'channels', 'export'];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageCars.mockResolvedValue({ list: cars, total: 2, pageNum: 1, pageSize: 10 } satisfies Page<Car>);
});

async function openAdd() {
  renderPage(<GroupCarPage />, 'groupCar', ALL);
  await screen.findByText('HU-A12345');
  fireEvent.click(screen.getByRole('button', { name: /新增车辆/ }));
  return await screen.findByRole('dialog');
}
const SAVE = /保\s*存/;
function save(dialog: HTMLElement) {
  fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
}

describe('groupCar page', { timeout: 60_000 }, () => {
  it('lists vehicles with fuel type and terminal phone; hides unauthorised buttons', async () => {
    renderPage(<GroupCarPage />, 'groupCar', []);
    expect(await screen.findByText('HU-A12345')).toBeTruthy();
    expect(screen.getByText('92#汽油')).toBeTruthy();
    expect(screen.getByText('天然气')).toBeTruthy();
    expect(screen.getByText('013800001111')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增车辆/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
    expect(api.pageCars).toHaveBeenCalledWith({ pageNum: 1, pageSize: 10 });
  });

  it('validates the vehicle form with the spec texts', async () => {
    const dialog = await openAdd();
    save(dialog);
    expect(await within(dialog).findByText('车牌号不能为空')).toBeTruthy();
    expect(within(dialog).getByText('仓数不能为空')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('车牌号'), { target: { value: 'AB12' } });
    fireEvent.change(within(dialog).getByLabelText('仓数'), { target: { value: '9' } });
    fireEvent.change(within(dialog).getByLabelText('司机电话'), { target: { value: '2380000000' } });
    fireEvent.change(within(dialog).getByLabelText('车架号'), { target: { value: 'IOQ' } });
    expect(await within(dialog).findByText('车牌号格式不正确')).toBeTruthy();
    expect(await within(dialog).findByText('仓数应为1到8')).toBeTruthy();
    expect(await within(dialog).findByText('手机号格式不正确')).toBeTruthy();
    expect(await within(dialog).findByText(/车架号应为17位/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('仓数'), { target: { value: '2' } });
    fireEvent.change(within(dialog).getByLabelText('底阀数'), { target: { value: '3' } });
    expect(await within(dialog).findByText('应为0到仓数')).toBeTruthy();
    expect(api.insertCar).not.toHaveBeenCalled();
  });

  it('inserts a valid vehicle with an upper-cased plate, defaults and one probe length per compartment', async () => {
    api.insertCar.mockResolvedValue(cars[0]);
    const dialog = await openAdd();
    fireEvent.change(within(dialog).getByLabelText('车牌号'), { target: { value: ' \u4eaca12345 ' } });
    fireEvent.change(within(dialog).getByLabelText('仓数'), { target: { value: '2' } });
    fireEvent.change(await within(dialog).findByLabelText('1仓'), { target: { value: '1500' } });
    fireEvent.change(within(dialog).getByLabelText('2仓'), { target: { value: '1600' } });
    fireEvent.change(within(dialog).getByLabelText('司机'), { target: { value: 'Zhao' } });
    save(dialog);
    await waitFor(() => expect(api.insertCar).toHaveBeenCalledTimes(1));
    expect(api.insertCar).toHaveBeenCalledWith(expect.objectContaining({
      plate: '\u4eacA12345', groupId: 1, compartments: 2, probeLengths: [1500, 1600], driverName: 'Zhao', fuelType: 0, loadingMethod: 1,
      speedLimit: 0, vin: '', driverPhone: '',
    }));
  });

  it('deletes a row only after confirmation, with its id', async () => {
    api.deleteCars.mockResolvedValue(1);
    renderPage(<GroupCarPage />, 'groupCar', ALL);
    const row = (await screen.findByText('SU-B54321')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('确定要删除该数据吗？')).toBeTruthy();
    expect(api.deleteCars).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.deleteCars).toHaveBeenCalledWith([6]));
    expect(await screen.findByText('删除成功')).toBeTruthy();
  });

  it('saves edited video channels', async () => {
    api.carChannels.mockResolvedValue([{ channelNo: 1, name: 'front', enabled: true }]);
    api.saveCarChannels.mockResolvedValue([]);
    renderPage(<GroupCarPage />, 'groupCar', ALL);
    const row = (await screen.findByText('HU-A12345')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '视频通道' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByDisplayValue('front')).toBeTruthy());
    fireEvent.change(within(dialog).getByDisplayValue('front'), { target: { value: 'cab' } });
    save(dialog);
    await waitFor(() => expect(api.saveCarChannels).toHaveBeenCalledWith(5, [{ channelNo: 1, name: 'cab', enabled: true }]));
  });
});
