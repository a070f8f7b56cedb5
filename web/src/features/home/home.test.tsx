import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { MenuNode } from '../../api/types';
import { useAppStore } from '../../app/store';
import { testSession } from '../access/testing';
import HomePage from './HomePage';

const api = vi.hoisted(() => ({ carCount: vi.fn(), findCarsByCode: vi.fn() }));
vi.mock('../../api/vehicleCounts', () => api);

const SLOW = { timeout: 5000 };
const monitoringMenu = [{ name: 'manager', title: '', code: '04', children: [{ name: 'monitoring', title: '', code: '04-01' }] }] as MenuNode[];

function renderHome(menu: MenuNode[]) {
  useAppStore.setState({ session: testSession, authMenu: menu });
  const router = createMemoryRouter(
    [
      { path: '/home', element: <HomePage /> },
      { path: '/manager/monitoring2', element: <div data-testid="monitoring2" /> },
    ],
    { initialEntries: ['/home'] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  api.carCount.mockReset().mockResolvedValue({ '8': 200, '4': 120, '5': 50, '7': 30, '3': 8 });
  api.findCarsByCode.mockReset().mockImplementation((code: string) =>
    Promise.resolve(
      code === '3'
        ? { list: [{ carId: 1, plate: '浙C·10070', groupName: '华东分公司', driverName: '徐海波', code: 4, online: true, abnormal: true, speed: 60, time: '2026-11-23 15:20:33', received: null, alarm: 0, seal: 2 }], total: 1, pageNum: 1, pageSize: 8 }
        : { list: [], total: 0, pageNum: 1, pageSize: 8 },
    ),
  );
});

describe('home cockpit', { timeout: 30_000 }, () => {
  it('shows the five counts, their shares and what needs attention', async () => {
    renderHome(monitoringMenu);
    const counts = await screen.findByTestId('cockpit-counts');
    expect(await within(counts).findByText('200', {}, SLOW)).toBeTruthy();
    expect(screen.getByTestId('count-4').textContent).toBe('120');
    expect(screen.getByTestId('count-3').textContent).toBe('8');
    expect(screen.getByText('占总数 60%')).toBeTruthy();
    expect(await screen.findByText('浙C·10070', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('铅封破坏')).toBeTruthy();
    expect(screen.getByText('暂无离线车辆')).toBeTruthy();
  });

  it('shows when the server took the counts, on the platform clock (Asia/Shanghai), not the browser clock', async () => {
    // 02:03:04 UTC is 10:03:04 in Shanghai; the browser's own clock and zone play no part
    api.carCount.mockResolvedValue({ '8': 200, '4': 120, '5': 50, '7': 30, '3': 8, serverTime: Date.UTC(2026, 2, 1, 2, 3, 4) });
    renderHome(monitoringMenu);
    const updated = await screen.findByTestId('cockpit-updated');
    await vi.waitFor(() => expect(updated.textContent).toContain('10:03:04'));
    expect(screen.getByText(/2026年3月1日/)).toBeTruthy();
  });

  it('opens monitoring2 with code and title when the user holds 04-01', async () => {
    const router = renderHome(monitoringMenu);
    await screen.findByText('120', {}, SLOW);
    fireEvent.click(document.querySelector('.tw-count-card[data-code="7"]')!);
    expect(router.state.location.pathname).toBe('/manager/monitoring2');
    expect(new URLSearchParams(router.state.location.search).get('code')).toBe('7');
    expect(new URLSearchParams(router.state.location.search).get('title')).toBe('离线');
  });

  it('does nothing without 04-01', async () => {
    const router = renderHome([{ name: 'home', title: '', code: '01' }] as MenuNode[]);
    await screen.findByText('120', {}, SLOW);
    const card = document.querySelector('.tw-count-card[data-code="4"]')!;
    expect(card.getAttribute('role')).toBeNull();
    fireEvent.click(card);
    expect(router.state.location.pathname).toBe('/home');
  });

  it('says so when the counts cannot be loaded', async () => {
    api.carCount.mockRejectedValue(new Error('down'));
    renderHome(monitoringMenu);
    expect((await screen.findByTestId('count-8', {}, SLOW)).textContent).toBe('—');
  });
});
