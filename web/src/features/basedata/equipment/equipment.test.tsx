import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Device } from '../../../api/equipment';
import type { CodeItem } from '../../../api/settings';
import type { Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import EquipmentPage from '.';
import { daysLeft, toDeviceBody, toFormValues } from './model';

const base = {
  modelId: null, videoChannels: 0, manufacturer: '', installDate: '', warrantyEnd: '', warranty: 0, state: 1, carId: null, plate: '',
  stationId: null, stationName: '', groupId: 1, groupName: '华东分公司', notes: '', updatedAt: '2026-11-01 08:00:00',
};
const devices: Device[] = [
  { ...base, key: 'terminal:013800000005', id: 0, kind: 'terminal', serial: '013800000005', mirror: true, modelName: 'TW-808T', carId: 5, plate: '沪A·6N337' },
  { ...base, key: 'camera:HKC6-01', id: 7, kind: 'camera', serial: 'HKC6-01', mirror: false, modelName: 'HK-C6', carId: 5, plate: '沪A·6N337', warrantyEnd: '2020-01-01', warranty: 3 },
  { ...base, key: 'lock:TWBLE-1', id: 9, kind: 'lock', serial: 'TWBLE-1', mirror: true, modelName: 'TW-BL120', state: 2 },
  { ...base, key: 'dashcam:DC-01', id: 11, kind: 'dashcam', serial: 'DC-01', mirror: false, modelName: '' },
  { ...base, key: 'gone:X-1', id: 12, kind: 'gone', serial: 'X-1', mirror: false, modelName: '' },
];
const item = (code: string, labelZh: string, enabled = true): CodeItem =>
  ({ id: 0, type: 'equipmentKind', code, labelZh, labelTw: labelZh, labelEn: code, sort: 0, enabled, builtin: true, updatedAt: 0 });
const kinds = [item('terminal', '车载终端'), item('probe', '液位探杆', false), item('lock', '电子锁'), item('camera', '摄像头'), item('gauge', '液位仪'),
  item('dashcam', '行车记录仪')];

const api = vi.hoisted(() => ({ devicePage: vi.fn(), deviceSave: vi.fn(), deviceDelete: vi.fn(), modelOptions: vi.fn(), findPlaces: vi.fn() }));
vi.mock('../../../api/equipment', async (orig) => ({ ...(await orig<typeof import('../../../api/equipment')>()), ...api }));
const settings = vi.hoisted(() => ({ useCodeList: vi.fn() }));
vi.mock('../../../api/settings', async (orig) => ({ ...(await orig<typeof import('../../../api/settings')>()), ...settings }));
vi.mock('../../../api/group', () => ({ groupTrees: vi.fn().mockResolvedValue([{ id: 1, parentId: null, name: '华东分公司', code: 'G1', children: [] }]) }));

const SLOW = { timeout: 5000 };

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.devicePage.mockResolvedValue({ list: devices, total: devices.length, pageNum: 1, pageSize: 10 } satisfies Page<Device>);
  settings.useCodeList.mockReturnValue({ data: kinds, isLoading: false });
  api.modelOptions.mockResolvedValue([]);
  api.findPlaces.mockResolvedValue({ cars: [{ id: 5, name: '沪A·6N337', groupName: '华东分公司' }], stations: [] });
});

describe('equipment page', { timeout: 180_000 }, () => {
  it('keeps a mirrored device’s serial and place out of the body, upper-cases an own serial', () => {
    const mirror = devices[0];
    const body = toDeviceBody({ ...toFormValues(mirror), serial: 'changed', installDate: dayjs('2025-03-04') }, mirror);
    expect(body).toMatchObject({ kind: 'terminal', serial: '013800000005', installDate: '2025-03-04', warrantyEnd: '' });
    expect(body.carId).toBeUndefined();
    expect(body.id).toBeUndefined(); // no row yet: found by kind + serial
    const own = toDeviceBody({ kind: 'camera', serial: ' cam-2 ', placeKind: 'station', carId: 5, stationId: 8 }, null);
    expect(own).toMatchObject({ serial: 'CAM-2', stationId: 8 });
    expect(own.carId).toBeUndefined();
    expect(daysLeft('2026-03-11', '2026-03-01')).toBe(10);
  });

  it('lists every kind with its place, warranty and state; no buttons without permission', async () => {
    renderPage(<EquipmentPage />, 'equipment', []);
    const term = (await screen.findByText('013800000005', {}, SLOW)).closest('tr')!;
    expect(within(term).getByText('车载终端')).toBeTruthy();
    expect(within(term).getByText(/沪A·6N337/)).toBeTruthy();
    const cam = screen.getByText('HKC6-01').closest('tr')!;
    expect(within(cam).getByText('已过保')).toBeTruthy();
    const lock = screen.getByText('TWBLE-1').closest('tr')!;
    expect(within(lock).getByText('维修中')).toBeTruthy();
    expect(within(lock).getByText('未安装')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增设备/ })).toBeNull();
  });

  it('names kinds by the code list (D95): an added kind by its label, one the list no longer has by its code', async () => {
    renderPage(<EquipmentPage />, 'equipment', []);
    const dc = (await screen.findByText('DC-01', {}, SLOW)).closest('tr')!;
    expect(within(dc).getByText('行车记录仪')).toBeTruthy();
    expect(within(screen.getByText('X-1').closest('tr')!).getByText('gone')).toBeTruthy();
    expect(settings.useCodeList).toHaveBeenCalledWith('equipmentKind');
  });

  it('offers the enabled kinds for a new device, the register kinds greyed out', async () => {
    renderPage(<EquipmentPage />, 'equipment', ['add']);
    fireEvent.click(await screen.findByRole('button', { name: /新增设备/ }, SLOW));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.mouseDown(within(dialog).getAllByRole('combobox')[0]);
    const option = (label: string) => screen.queryByText(label, { selector: '.ant-select-item-option-content' });
    await waitFor(() => expect(option('行车记录仪')).toBeTruthy(), SLOW);
    expect(option('液位探杆')).toBeNull(); // disabled in the list
    expect(option('车载终端')!.closest('.ant-select-item-option')!.className).toContain('disabled');
    expect(option('摄像头')!.closest('.ant-select-item-option')!.className).not.toContain('disabled');
  });

  it('offers to add details to a bare terminal, not to delete it; clears a lock’s details after saying the lock stays', async () => {
    api.deviceDelete.mockResolvedValue({ mirror: true });
    renderPage(<EquipmentPage />, 'equipment', ['edit', 'delete']);
    const term = (await screen.findByText('013800000005', {}, SLOW)).closest('tr')!;
    expect(within(term).getByRole('button', { name: /补充信息/ })).toBeTruthy();
    expect((within(term).getByRole('button', { name: /删\s*除/ }) as HTMLButtonElement).disabled).toBe(true);
    const lock = screen.getByText('TWBLE-1').closest('tr')!;
    fireEvent.click(within(lock).getByRole('button', { name: /清除信息/ }));
    const confirm = await screen.findByText(/电子锁本身不会被删除/, {}, SLOW);
    fireEvent.click(within(confirm.closest('.ant-modal-content') as HTMLElement).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.deviceDelete).toHaveBeenCalledWith(9), SLOW);
  });

  it('refuses a warranty ending before the installation before asking the server', async () => {
    renderPage(<EquipmentPage />, 'equipment', ['edit']);
    const cam = (await screen.findByText('HKC6-01', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(cam).getByRole('button', { name: /编\s*辑/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    const install = within(dialog).getByLabelText('安装日期');
    fireEvent.mouseDown(install);
    fireEvent.change(install, { target: { value: '2021-01-01' } });
    fireEvent.keyDown(install, { key: 'Enter' });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('质保截止日期不能早于安装日期', {}, SLOW)).toBeTruthy();
    expect(api.deviceSave).not.toHaveBeenCalled();
  });
});
