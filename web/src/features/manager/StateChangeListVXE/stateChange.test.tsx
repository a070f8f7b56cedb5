import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StateChange } from '../../../api/history';
import { renderPage } from '../../access/testing';
import { calledWith, carPage, filterForm, page, pickVehicle, search, SLOW } from '../history/testing';
import StateChangePage from '.';
import { changeColor } from './changes';

const api = vi.hoisted(() => ({ stateChangePage: vi.fn(), searchCars: vi.fn() }));
const geo = vi.hoisted(() => ({ getAddress: vi.fn() }));
vi.mock('../../../api/history', async (orig) => ({ ...(await orig<typeof import('../../../api/history')>()), ...api }));
vi.mock('../../../api/geocode', () => geo);

const ev = (e: Partial<StateChange>): StateChange => ({
  time: '2026-03-01 16:00:00', carId: 5, plate: '沪A·6N337', kind: 'acc', compartment: null, device: '', bit: null, from: 'off', to: 'on',
  text: 'ACC：关 → 开', lng: 121.473701, lat: 31.230416, ...e,
});
const events = [
  ev({ time: '2026-03-01 16:02:00', kind: 'seal', from: 'sealed', to: 'broken', text: '铅封：已施封 → 铅封破坏' }),
  ev({ time: '2026-03-01 16:01:00', kind: 'open', compartment: 2, device: 'bottomValve', from: 'closed', to: 'open', text: '2 号仓底阀：关闭 → 打开', lng: '', lat: '' }),
  ev({}),
];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  geo.getAddress.mockReset();
  api.searchCars.mockResolvedValue(carPage);
  api.stateChangePage.mockResolvedValue(page(events, 23));
  geo.getAddress.mockResolvedValue('上海市黄浦区附近');
});

describe('basic cleaning data page', { timeout: 60_000 }, () => {
  it('lists the changes of the chosen vehicle with kinds, texts and addresses', async () => {
    renderPage(<StateChangePage />, 'StateChangeListVXE', []);
    expect(await screen.findByText('请选择车辆或输入终端手机号后查询', {}, SLOW)).toBeTruthy();
    await pickVehicle('沪A·6N337');
    search();
    await calledWith(api.stateChangePage, { carId: 5, pageNum: 1, pageSize: 10 });
    expect(await screen.findByText('铅封：已施封 → 铅封破坏', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('2 号仓底阀：关闭 → 打开')).toBeTruthy();
    expect(screen.getByText('开关')).toBeTruthy();
    expect(screen.getByText('共 23 条')).toBeTruthy();
    // addresses only for located events
    expect((await screen.findAllByText('上海市黄浦区附近', {}, SLOW)).length).toBe(2);
    expect(geo.getAddress).toHaveBeenCalledWith(121.473701, 31.230416);
    expect(screen.getAllByText('未定位').length).toBe(2);
  });

  it('filters by kind', async () => {
    renderPage(<StateChangePage />, 'StateChangeListVXE', []);
    await pickVehicle('沪A·6N337');
    fireEvent.mouseDown(filterForm().querySelector('.ant-select[data-testid="kind-select"] .ant-select-selector')!);
    fireEvent.click(await screen.findByTitle('铅封', {}, SLOW));
    search();
    await calledWith(api.stateChangePage, { carId: 5, kind: 'seal' });
  });

  it('colours what needs attention', () => {
    expect(changeColor({ kind: 'alarm', to: 'raised' })).toBe('red');
    expect(changeColor({ kind: 'alarm', to: 'cleared' })).toBe('default');
    expect(changeColor({ kind: 'seal', to: 'broken' })).toBe('red');
    expect(changeColor({ kind: 'open', to: 'open' })).toBe('orange');
    expect(changeColor({ kind: 'lock', to: 'locked' })).toBe('green');
    expect(changeColor({ kind: 'acc', to: 'on' })).toBe('blue');
  });
});
