import { fireEvent, screen, within } from '@testing-library/react';
import i18n from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TankStateRow } from '../../../api/history';
import { parseLockState } from '../../../lib/lockState';
import { renderPage } from '../../access/testing';
import { calledWith, carPage, filterForm, page, pickVehicle, search, SLOW } from '../history/testing';
import SensorRecordPage from '.';
import { summaryText, tankOf } from './LockSummary';

const api = vi.hoisted(() => ({ hbaseTable: vi.fn(), searchCars: vi.fn() }));
vi.mock('../../../api/history', async (orig) => ({ ...(await orig<typeof import('../../../api/history')>()), ...api }));

/** Compartments 1 and 2 fitted with all four devices: 1 locked shut, 2 with its bottom valve open; 3 a faulty cover. */
function lockText(): string {
  const chars = Array.from({ length: 128 }, () => '0');
  const set = (c: number, k: number, bits: string) => bits.split('').forEach((b, j) => (chars[k * 32 + (c - 1) * 4 + j] = b));
  for (let k = 0; k < 4; k++) {
    set(1, k, '1010');
    set(2, k, '1000');
  }
  set(2, 3, '1100');
  set(3, 1, '1001');
  return chars.join('');
}

const base = { carId: 5, plate: '沪A·6N337', terminalId: 5, levels: [], help: 0, helpName: '', seal: 0, sealName: '', lockState: '' };
const rows: TankStateRow[] = [
  { ...base, time: '2026-03-01 16:02:00', help: 1, helpName: '请求开锁' },
  { ...base, time: '2026-03-01 16:01:00', levels: [{ compartment: 1, levelMm: 1500, volumeL: 12000, temperature: 21.5 }] },
  { ...base, time: '2026-03-01 16:00:00', lockState: lockText(), seal: 2, sealName: '铅封破坏' },
];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.searchCars.mockResolvedValue(carPage);
  api.hbaseTable.mockResolvedValue(page(rows));
});

describe('sensor record page', { timeout: 60_000 }, () => {
  it('shows locks per compartment, seal, levels and help requests of the chosen vehicle', async () => {
    renderPage(<SensorRecordPage />, 'sensorRecord', []);
    await pickVehicle('沪A·6N337');
    search();
    await calledWith(api.hbaseTable, { table: 'tankStates', carId: 5 });
    expect(await screen.findByText('请求开锁', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('1 号仓：1500 mm / 12000 L / 21.5 °C')).toBeTruthy();
    expect(screen.getByText('铅封破坏')).toBeTruthy();
    const summary = screen.getByTestId('lock-summary');
    expect(within(summary).getByText('1 号仓 已上锁')).toBeTruthy();
    expect(within(summary).getByText('2 号仓 打开')).toBeTruthy();
    expect(within(summary).getByText('3 号仓 故障')).toBeTruthy();
    // expanding the lock-state row lists every device
    const row = summary.closest('tr')!;
    fireEvent.click(row.querySelector('.ant-table-row-expand-icon')!);
    const tank = await screen.findByTestId('decoded-tank', {}, SLOW);
    expect(within(tank).getByText('底阀')).toBeTruthy();
    expect(within(tank).getAllByText('未安装').length).toBe(3);
  });

  it('narrows to the rows with levels', async () => {
    renderPage(<SensorRecordPage />, 'sensorRecord', []);
    await pickVehicle('沪A·6N337');
    fireEvent.mouseDown(filterForm().querySelector('.ant-select[data-testid="only-select"] .ant-select-selector')!);
    fireEvent.click(await screen.findByTitle('液位', {}, SLOW));
    search();
    await calledWith(api.hbaseTable, { table: 'tankStates', carId: 5, only: 'levels' });
  });
});

describe('lock summary helpers', () => {
  it('counts and names the devices of each compartment', () => {
    const [c1, c2] = parseLockState(lockText());
    const t = i18n.t.bind(i18n);
    expect(summaryText(t, c1)).toBe('打开 0 · 关闭 4 · 上锁 4 · 故障 0');
    expect(summaryText(t, c2)).toBe('打开 1 · 关闭 3 · 上锁 0 · 故障 0');
    const tank = tankOf(t, lockText());
    expect(tank.compartments?.map((c) => c.no)).toEqual([1, 2, 3]);
    expect(tank.compartments?.[1].devices[3]).toMatchObject({ name: '底阀', installed: true, open: true });
  });
});
