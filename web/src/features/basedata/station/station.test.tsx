import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Station } from '../../../api/station';
import type { Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import StationPage from '.';
import { toStationBody } from './StationForm';
import { draftOf } from '../../../lib/fence';

const base = {
  groupId: 3,
  groupName: '华东分公司',
  address: '',
  contact: '',
  phone: '',
  remark: '',
  createdAt: '2026-01-02 03:04:05',
  updatedAt: '2026-01-02 03:04:05',
};
const stations: Station[] = [
  { ...base, id: 7, stationId: 7, stationName: '上海石化油库', stationType: 'yk', fenceType: 2, fencePoints: '', fenceCenter: '121.340000,30.720000', raduis: 500, lng: 121.34, lat: 30.72 },
  {
    ...base,
    id: 8,
    stationId: 8,
    stationName: '测试停车场',
    stationType: 'wlcc',
    fenceType: 1,
    fencePoints: '121.4,31.1;121.41,31.1;121.41,31.11',
    fenceCenter: '',
    raduis: 0,
    lng: 121.406,
    lat: 31.103,
  },
];

const api = vi.hoisted(() => ({ pageStations: vi.fn(), addStation: vi.fn(), updateStation: vi.fn(), deleteStation: vi.fn() }));
vi.mock('../../../api/station', async (orig) => ({ ...(await orig<typeof import('../../../api/station')>()), ...api }));
vi.mock('../../../features/access/groupInfo/groupTree', () => ({ useGroupTree: () => ({ data: [], isLoading: false }), toGroupOptions: () => [] }));
// The map itself is exercised by the e2e test (web/e2e/stations.test.mjs); here only the form around it.
vi.mock('../../../components/map/MapView', async (orig) => ({
  ...(await orig<typeof import('../../../components/map/MapView')>()),
  MapView: () => <div data-testid="map-stub" />,
}));

const SAVE = /保\s*存/;
const SLOW = { timeout: 5000 };

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageStations.mockResolvedValue({ list: stations, total: 2, pageNum: 1, pageSize: 10 } satisfies Page<Station>);
});

describe('station page', { timeout: 60_000 }, () => {
  it('lists stations with translated types and fence sizes, buttons only with permission', async () => {
    renderPage(<StationPage />, 'station', []);
    expect(await screen.findByText('上海石化油库', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('油库')).toBeTruthy();
    expect(screen.getByText('物流停车场')).toBeTruthy();
    expect(screen.getByText('500 米')).toBeTruthy();
    expect(screen.getByText('3 个顶点')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增站点/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
  });

  it('filters by type', async () => {
    renderPage(<StationPage />, 'station', ['add', 'edit', 'delete', 'export']);
    await screen.findByText('上海石化油库', {}, SLOW);
    const filters = document.querySelector<HTMLElement>('form.tw-filter-form')!;
    fireEvent.change(within(filters).getByLabelText('站点名称'), { target: { value: '油库' } });
    fireEvent.click(within(filters).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(api.pageStations).toHaveBeenLastCalledWith(expect.objectContaining({ stationName: '油库', pageNum: 1 })));
  });

  it('refuses to save without a fence and says why', async () => {
    renderPage(<StationPage />, 'station', ['add']);
    await screen.findByText('上海石化油库', {}, SLOW);
    fireEvent.click(screen.getByRole('button', { name: /新增站点/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect(await within(dialog).findByText('站点名称不能为空', {}, SLOW)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('站点名称'), { target: { value: '新站' } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect((await within(dialog).findByTestId('fence-problem', {}, SLOW)).textContent).toBe('多边形围栏至少需要 3 个不同的顶点');
    expect(api.addStation).not.toHaveBeenCalled();
  });

  it('opens an edit with the stored circle', async () => {
    renderPage(<StationPage />, 'station', ['edit']);
    const row = (await screen.findByText('上海石化油库', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect((within(dialog).getByLabelText('站点名称') as HTMLInputElement).value).toBe('上海石化油库');
    const radius = within(dialog).getByTestId('fence-radius');
    expect((radius.tagName === 'INPUT' ? (radius as HTMLInputElement) : radius.querySelector('input')!).value).toBe('500');
  });

  it('builds the body from the form and the fence', () => {
    expect(toStationBody({ stationName: ' a ', stationType: 'cng' }, draftOf({ fenceType: 2, fenceCenter: '121,31', raduis: 80 }))).toEqual({
      stationName: 'a',
      stationType: 'cng',
      groupId: undefined,
      address: '',
      contact: '',
      phone: '',
      remark: '',
      fenceType: 2,
      fencePoints: '',
      fenceCenter: '121.000000,31.000000',
      raduis: 80,
    });
  });
});
