import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Suspect } from '../../../api/station';
import type { Page } from '../../../api/types';
import { useAppStore } from '../../../app/store';
import { renderPage } from '../../access/testing';
import SuspectedStationPage from '.';

const suspects: Suspect[] = [
  {
    id: 5,
    groupId: 3,
    groupName: '华东分公司',
    lng: 121.123456,
    lat: 31.654321,
    count: 4,
    carCount: 2,
    cars: ['沪A12345', '沪B54321'],
    firstTime: '2026-03-01 08:00:00',
    lastTime: '2026-03-02 09:00:00',
    address: '上海市松江区',
  },
];

const api = vi.hoisted(() => ({ pageSuspects: vi.fn(), dismissSuspect: vi.fn(), addStation: vi.fn() }));
vi.mock('../../../api/station', async (orig) => ({ ...(await orig<typeof import('../../../api/station')>()), ...api }));
vi.mock('../../../features/access/groupInfo/groupTree', () => ({ useGroupTree: () => ({ data: [], isLoading: false }), toGroupOptions: () => [] }));
vi.mock('../../../components/map/MapView', async (orig) => ({
  ...(await orig<typeof import('../../../components/map/MapView')>()),
  MapView: () => <div data-testid="map-stub" />,
}));

const SLOW = { timeout: 5000 };
const stationAdd = [{ name: 'basedata', path: '/basedata', children: [{ name: 'station', path: '/basedata/station', code: '03-10', children: [{ name: 'station-add', code: '03-10-01' }] }] }];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageSuspects.mockResolvedValue({ list: suspects, total: 1, pageNum: 1, pageSize: 10 } satisfies Page<Suspect>);
  useAppStore.setState({ authMenu: null });
});

describe('suspected station page', { timeout: 60_000 }, () => {
  it('lists candidates; dismiss asks first', async () => {
    api.dismissSuspect.mockResolvedValue(null);
    renderPage(<SuspectedStationPage />, 'suspectedStation', ['dismiss']);
    const row = (await screen.findByText('上海市松江区', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('沪A12345、沪B54321')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: '转为站点' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: '忽略' }));
    expect(await screen.findByText('确定要忽略该疑似站点吗？', {}, SLOW)).toBeTruthy();
    expect(api.dismissSuspect).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.dismissSuspect).toHaveBeenCalledWith(5));
  });

  it('promotes a candidate through the station form with a circle at its centre', async () => {
    api.addStation.mockResolvedValue({});
    useAppStore.setState({ authMenu: stationAdd as never });
    renderPage(<SuspectedStationPage />, 'suspectedStation', []);
    const row = (await screen.findByText('上海市松江区', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '转为站点' }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.change(within(dialog).getByLabelText('站点名称'), { target: { value: '松江新站' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.addStation).toHaveBeenCalledTimes(1));
    expect(api.addStation).toHaveBeenCalledWith(
      expect.objectContaining({ stationName: '松江新站', stationType: 'jyz', groupId: 3, suspectId: 5, fenceType: 2, fenceCenter: '121.123456,31.654321', raduis: 300, address: '上海市松江区' }),
    );
  });
});
