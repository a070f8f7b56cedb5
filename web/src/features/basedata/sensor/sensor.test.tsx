import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sensor } from '../../../api/sensor';
import type { Page } from '../../../api/types';
import { BusinessError } from '../../../api/client';
import { renderPage } from '../../access/testing';
import SensorPage from '.';
import { SensorForm } from './SensorForm';

const base = { groupId: 1, groupName: 'Top', remark: '', createdAt: '2026-01-02 03:04:05', updatedAt: '2026-01-02 03:04:05' };
const sensors: Sensor[] = [
  { ...base, id: 7, name: 'probe-front', length: 10, identification: 'A1', decoder: 'level' },
  { ...base, id: 8, name: 'lock-gateway', length: 0, identification: 'B0', decoder: 'lock' },
];

const api = vi.hoisted(() => ({ pageSensors: vi.fn(), addSensor: vi.fn(), updateSensor: vi.fn(), deleteSensor: vi.fn() }));
vi.mock('../../../api/sensor', async (orig) => ({ ...(await orig<typeof import('../../../api/sensor')>()), ...api }));

const ALL = ['add', 'edit', 'delete'];
const SAVE = /保\s*存/;
// antd messages and validation render asynchronously; on a loaded machine that takes more than findBy's default second.
const SLOW = { timeout: 5000 };

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageSensors.mockResolvedValue({ list: sensors, total: 2, pageNum: 1, pageSize: 10 } satisfies Page<Sensor>);
});

describe('sensor page', { timeout: 60_000 }, () => {
  it('lists sensors with translated decoders and hides buttons without permission', async () => {
    renderPage(<SensorPage />, 'sensor', []);
    expect(await screen.findByText('probe-front', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('液位探杆')).toBeTruthy();
    expect(screen.getByText('电子锁/阀门')).toBeTruthy();
    expect(screen.getByText('B0')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增传感器/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(api.pageSensors).toHaveBeenCalledWith(expect.objectContaining({ pageNum: 1, pageSize: 10 }));
  });

  it('filters by name', async () => {
    renderPage(<SensorPage />, 'sensor', ALL);
    await screen.findByText('probe-front', {}, SLOW);
    const filters = document.querySelector<HTMLElement>('form.tw-filter-form')!;
    fireEvent.change(within(filters).getByLabelText('传感器名称'), { target: { value: 'probe' } });
    fireEvent.click(within(filters).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(api.pageSensors).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'probe', pageNum: 1 })));
  });

  it('requires a name (on blur and on save) and adds a sensor', async () => {
    api.addSensor.mockResolvedValue(sensors[0]);
    renderPage(<SensorPage />, 'sensor', ALL);
    await screen.findByText('probe-front', {}, SLOW);
    fireEvent.click(screen.getByRole('button', { name: /新增传感器/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    const name = within(dialog).getByLabelText('传感器名称');
    fireEvent.focus(name);
    fireEvent.blur(name);
    expect(await within(dialog).findByText('用户名不能为空', {}, SLOW)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect(await screen.findByText('请填写完整的部门信息!', {}, SLOW)).toBeTruthy();
    expect(api.addSensor).not.toHaveBeenCalled();
    fireEvent.change(name, { target: { value: ' probe-rear ' } });
    fireEvent.change(within(dialog).getByLabelText('外设识别ID'), { target: { value: 'a2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.addSensor).toHaveBeenCalledTimes(1));
    expect(api.addSensor).toHaveBeenCalledWith({ name: 'probe-rear', length: 0, identification: 'A2', decoder: 'level', remark: '' });
    expect(await screen.findByText('添加成功', {}, SLOW)).toBeTruthy();
  });

  it('edits a sensor with its id and group, and keeps the dialog open on a server refusal', async () => {
    api.updateSensor.mockRejectedValueOnce(new BusinessError('本组织已有外设识别ID为 B0 的传感器', { code: 0, message: '', success: 0, data: null }));
    api.updateSensor.mockResolvedValueOnce(sensors[0]);
    renderPage(<SensorPage />, 'sensor', ALL);
    const row = (await screen.findByText('probe-front', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect((within(dialog).getByLabelText('外设识别ID') as HTMLInputElement).value).toBe('A1');
    fireEvent.change(within(dialog).getByLabelText('外设识别ID'), { target: { value: 'B0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.updateSensor).toHaveBeenCalledTimes(1));
    expect(api.updateSensor).toHaveBeenCalledWith({ id: 7, groupId: 1, name: 'probe-front', length: 10, identification: 'B0', decoder: 'level', remark: '' });
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect(await screen.findByText('修改成功', {}, SLOW)).toBeTruthy();
  });

  it('deletes one sensor by id after confirmation', async () => {
    api.deleteSensor.mockResolvedValue(null);
    renderPage(<SensorPage />, 'sensor', ALL);
    const row = (await screen.findByText('lock-gateway', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('确定要删除该数据吗？', {}, SLOW)).toBeTruthy();
    expect(api.deleteSensor).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.deleteSensor).toHaveBeenCalledWith(8));
    expect(await screen.findByText('删除成功', {}, SLOW)).toBeTruthy();
  });

  it('refuses an edit without a record (unknown form mode) with 请重新操作', async () => {
    renderPage(<SensorForm mode="edit" sensor={null} onClose={() => undefined} onSaved={() => undefined} />, 'sensor', ALL);
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.change(within(dialog).getByLabelText('传感器名称'), { target: { value: 'probe' } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect(await screen.findByText('请重新操作', {}, SLOW)).toBeTruthy();
    expect(api.addSensor).not.toHaveBeenCalled();
    expect(api.updateSensor).not.toHaveBeenCalled();
  });
});
