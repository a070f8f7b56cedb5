import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FindResult, WaybillCar, WaybillExhibition } from './api';
import { etaClock, etaIn, withLive } from './model';

const api = vi.hoisted(() => ({ findCarsByWaybill: vi.fn(), carExhibitionByWaybill: vi.fn() }));
vi.mock('./api', async (orig) => ({ ...(await orig<typeof import('./api')>()), ...api }));
// Leaflet needs a real layout; the page around the map is what is tested here
vi.mock('../../../components/map/MapView', () => ({
  MAP_ZOOM: 14,
  MapView: ({ children }: { children: React.ReactNode }) => <div data-testid="wbmap-map">{children}</div>,
  fitMapToCoords: () => true,
  useServerTileSource: () => 'none',
}));
vi.mock('./WaybillMapLayers', () => ({
  CarMarkers: ({ cars }: { cars: WaybillCar[] }) => <div data-testid="markers">{cars.map((c) => c.plate).join(',')}</div>,
  FitOnce: () => null,
  RouteLayer: ({ ex }: { ex: WaybillExhibition }) => <div data-testid="route">{ex.destinations.length}</div>,
}));
vi.mock('../monitoring/useLiveCars', () => ({ useLiveCars: () => ({ httpError: false, retry: () => {} }) }));

import MonitoringWaybillPage from '.';

const NOW = Date.UTC(2026, 10, 26, 2, 0, 0); // 10:00 in Shanghai
const car = (o: Partial<WaybillCar>): WaybillCar => ({
  carId: 1, plate: '沪A00001', lng: 121.4, lat: 31.2, speed: 60, direction: 0, code: 4, time: NOW, waybillId: 11, waybillNo: 'G0001YD202611260001',
  state: 'IN_TRANSIT', stateAt: NOW, flagged: false, depotName: '上海油库', dispatchedAt: NOW - 7_200_000, departAt: NOW - 3_600_000, plannedArriveAt: 0,
  nextSeq: 1, nextName: '徐汇加油站', nextKm: 20, finalKm: 20, etaAt: NOW + 25 * 60_000, finalEtaAt: NOW + 25 * 60_000, late: false,
  avgKmh: 48, speedSource: 'trip', movingKm: 40, movingMin: 50, ...o,
});
const result: FindResult = {
  serverTime: NOW, defaultKmh: 50, movingKmh: 5,
  list: [car({}), car({ carId: 2, plate: '沪A00002', waybillId: 12, waybillNo: 'G0001YD202611260002', state: 'DISPATCHED', speedSource: 'default', avgKmh: 50, late: true, etaAt: NOW + 90 * 60_000 })],
};

function renderPage() {
  const router = createMemoryRouter([{ path: '/manager/monitoring_waybill', element: <MonitoringWaybillPage /> }], { initialEntries: ['/manager/monitoring_waybill'] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
}

describe('ETA texts', () => {
  it.each([
    [null, null],
    [NOW - 1000, 'monitoringWaybill.eta.now'],
    [NOW + 20_000, 'monitoringWaybill.eta.lessThanMinute'],
    [NOW + 25 * 60_000, 'monitoringWaybill.eta.minutes'],
    [NOW + 65 * 60_000, 'monitoringWaybill.eta.hours'],
    [NOW + 26 * 3_600_000, 'monitoringWaybill.eta.days'],
  ])('%s → %s', (eta, key) => {
    expect(etaIn(eta, NOW)?.key ?? null).toBe(key);
  });
  it('pads minutes and gives the Shanghai clock time', () => {
    expect(etaIn(NOW + 65 * 60_000, NOW)?.args).toEqual({ h: 1, m: '05' });
    expect(etaClock(NOW + 25 * 60_000, NOW)).toBe('10:25');
    expect(etaClock(NOW + 24 * 3_600_000, NOW)).toBe('11-27 10:00');
  });
  it('takes the newest live position', () => {
    const live = new Map([[1, { carId: 1, plate: '', lng: 122, lat: 30, speed: 10, direction: 90, code: 4, abnormal: false, time: null }]]);
    const [a, b] = withLive(result.list, live);
    expect([a.lng, a.lat, a.speed]).toEqual([122, 30, 10]);
    expect(b).toBe(result.list[1]);
  });
});

describe('monitoring_waybill page', { timeout: 30_000 }, () => {
  beforeEach(() => {
    api.findCarsByWaybill.mockReset().mockResolvedValue(result);
    api.carExhibitionByWaybill.mockReset().mockResolvedValue({
      ...result.list[0],
      depot: { seq: 0, stationId: 1, name: '上海油库', lng: 121, lat: 31, state: 0, arriveAt: 0 },
      destinations: [{ seq: 1, stationId: 2, name: '徐汇加油站', lng: 121.4, lat: 31.1, state: 0, arriveAt: 0 }],
      track: [{ t: NOW - 60_000, lng: 121.3, lat: 31.1, speed: 50 }],
      truncated: false,
      serverTime: NOW,
    } satisfies WaybillExhibition);
  });

  it('lists the active waybills with state, next stop, ETA and the late marker, and filters by state', async () => {
    renderPage();
    const rows = await screen.findAllByTestId('wbmap-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('运输中');
    expect(rows[0].textContent).toContain('下一站：徐汇加油站');
    expect(rows[0].textContent).toContain('约 25 分钟');
    expect(rows[0].textContent).not.toContain('预计晚到');
    expect(rows[1].textContent).toContain('已派单');
    expect(rows[1].textContent).toContain('预计晚到');
    expect(screen.getByTestId('markers').textContent).toBe('沪A00001,沪A00002');

    const chips = screen.getByTestId('wbmap-states');
    fireEvent.click(within(chips).getByText('已派单'));
    expect(screen.getAllByTestId('wbmap-row')).toHaveLength(1);
    expect(screen.getByTestId('markers').textContent).toBe('沪A00002');
  });

  it('shows the waybill card with its route, the speed used and a link to the timeline', async () => {
    renderPage();
    fireEvent.click((await screen.findAllByTestId('wbmap-row'))[0]);
    const card = await screen.findByTestId('wbmap-card');
    expect(api.carExhibitionByWaybill).toHaveBeenCalledWith(1);
    expect(card.textContent).toContain('G0001YD202611260001');
    expect(card.textContent).toContain('平均行驶速度');
    expect(screen.getByTestId('route').textContent).toBe('1');
    expect(screen.getByTestId('wbmap-timeline').getAttribute('href')).toBe('/manager/oilTransportProcess?waybillId=11');
  });

  it('says when nothing is on the way', async () => {
    api.findCarsByWaybill.mockResolvedValue({ ...result, list: [] });
    renderPage();
    expect(await screen.findByText('当前没有进行中的运单')).toBeTruthy();
  });
});
