import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ParamCommand, ParamRow, ParamValues } from '../../../api/parameter';
import { renderPage } from '../../access/testing';
import { SLOW } from '../history/testing';
import { ParamsTab } from '.';

const api = vi.hoisted(() => ({ paramValues: vi.fn(), readParams: vi.fn(), setParams: vi.fn(), paramCommand: vi.fn() }));
vi.mock('../../../api/parameter', async (orig) => ({ ...(await orig<typeof import('../../../api/parameter')>()), ...api }));

const row = (p: Partial<ParamRow>): ParamRow => ({
  id: 1, hex: '0x0001', key: 'heartbeat', name: '心跳间隔', group: 'comm', compartment: 0, kind: 0, min: 1, max: 3600,
  unit: 's', unitText: '秒', value: 60, source: 'read', at: '2026-03-01 08:00:00', ...p,
});
const values: ParamValues = {
  carId: 7, plate: '冀A·3K281', online: true, hasTerminal: true, compartments: 1, readAt: '2026-03-01 08:00:00', pending: null,
  rows: [
    row({}),
    row({ id: 0xf011, hex: '0xF011', key: 'zeroOffset', name: '1 号仓 零点偏移', group: 'probe', compartment: 1, kind: 1, min: -500, max: 500, unit: 'mm', unitText: '毫米', value: 0 }),
  ],
};
const command = (p: Partial<ParamCommand>): ParamCommand => ({
  id: 9, carId: 7, plate: '冀A·3K281', kind: 'set', kindText: '下发参数', state: 'sent', stateText: '已下发，等待应答', final: false, result: null,
  message: '已向车辆 冀A·3K281 的终端下发参数，等待应答…', userName: 'admin', createdAt: '2026-03-01 08:01:00', doneAt: null, commandId: 0, changes: [], ...p,
});

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.paramValues.mockResolvedValue(values);
});

describe('remote calibration (parameter)', { timeout: 60_000 }, () => {
  it('sends only the changed value after a confirmation listing old → new, and follows the command until acknowledged', async () => {
    api.setParams.mockResolvedValue(command({}));
    api.paramCommand.mockResolvedValue(command({ state: 'acknowledged', stateText: '终端已应答', final: true, message: '车辆 冀A·3K281 的终端已接受新参数' }));
    renderPage(<ParamsTab carId={7} setCarId={() => undefined} />, 'parameter', ['set']);
    const offset = (await screen.findByTestId('param-0xF011', {}, SLOW)).querySelector('input') ?? screen.getByTestId('param-0xF011');
    await waitFor(() => expect((offset as HTMLInputElement).value).toBe('0'), SLOW);
    expect((screen.getByTestId('parameter-send') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(offset, { target: { value: '-12' } });
    await waitFor(() => expect((screen.getByTestId('parameter-send') as HTMLButtonElement).disabled).toBe(false), SLOW);
    fireEvent.click(screen.getByTestId('parameter-send'));
    const confirm = await screen.findByTestId('parameter-confirm', {}, SLOW);
    expect(within(confirm).getByText('1 号仓 零点偏移: 0 → -12 毫米')).toBeTruthy();
    expect(api.setParams).not.toHaveBeenCalled();
    fireEvent.click(within(confirm.closest('.ant-modal') as HTMLElement).getByRole('button', { name: /下\s*发/ }));
    await waitFor(() => expect(api.setParams).toHaveBeenCalledWith(7, [{ id: 0xf011, value: -12 }]), SLOW);
    await screen.findByText('车辆 冀A·3K281 的终端已接受新参数', {}, SLOW);
    expect(screen.getByTestId('parameter-status').getAttribute('data-state')).toBe('acknowledged');
  });

  it('refuses a value out of range in place', async () => {
    renderPage(<ParamsTab carId={7} setCarId={() => undefined} />, 'parameter', ['set']);
    const offset = (await screen.findByTestId('param-0xF011', {}, SLOW)).querySelector('input') ?? screen.getByTestId('param-0xF011');
    await waitFor(() => expect((offset as HTMLInputElement).value).toBe('0'), SLOW);
    fireEvent.change(offset, { target: { value: '900' } });
    await screen.findByText('应在 -500 到 500 之间', {}, SLOW);
  });

  it('without parameter-set the values are shown and read, never sent', async () => {
    renderPage(<ParamsTab carId={7} setCarId={() => undefined} />, 'parameter', []);
    await screen.findByText('您没有下发参数的权限，只能查看和读取', {}, SLOW);
    expect(screen.queryByTestId('parameter-send')).toBeNull();
    const offset = screen.getByTestId('param-0xF011');
    expect((offset.querySelector('input') ?? (offset as HTMLInputElement)).disabled).toBe(true);
    expect(screen.getByRole('button', { name: /读取参数/ })).toBeTruthy();
  });
});
