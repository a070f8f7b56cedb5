import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CarFunctions } from '../../../api/equipment';
import { useAppStore } from '../../../app/store';

const api = vi.hoisted(() => ({ carFunctions: vi.fn() }));
vi.mock('../../../api/equipment', () => ({ carFunctions: api.carFunctions }));
vi.mock('../../../api/lockEvents', () => ({ sendLockCommand: vi.fn() }));

import { CarFunctionsBar } from './CarFunctionsBar';

const fns = (o: Partial<CarFunctions>): CarFunctions => ({
  carId: 5,
  known: true,
  models: ['TW-808L'],
  videoChannels: 0,
  channelNames: [],
  probes: 4,
  lockBle: false,
  lock4g: false,
  locks: 0,
  valveSensors: 2,
  can: false,
  showVideo: false,
  showLocks: false,
  ...o,
});

function renderBar() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <CarFunctionsBar carId={5} plate="沪A·6N337" />
      </App>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.clearAllMocks());

describe('CarFunctionsBar', () => {
  it('hides video and lock actions for a model without them', async () => {
    useAppStore.setState({ setMenu: ['blueLockRecord-command'] });
    api.carFunctions.mockResolvedValue(fns({}));
    renderBar();
    await waitFor(() => expect(screen.getByTestId('car-functions-note').textContent).toBe('TW-808L'));
    expect(screen.queryByTestId('car-video')).toBeNull();
    expect(screen.queryByTestId('car-unlock')).toBeNull();
  });

  it('shows the channels of a model with video and the lock actions of a car with locks', async () => {
    useAppStore.setState({ setMenu: ['blueLockRecord-command'] });
    api.carFunctions.mockResolvedValue(fns({ models: ['TW-808T'], videoChannels: 4, showVideo: true, locks: 2, showLocks: true }));
    renderBar();
    await waitFor(() => expect(screen.getByTestId('car-video').textContent).toContain('4'));
    expect(screen.getByTestId('car-unlock')).toBeTruthy();
  });

  it('keeps every action for a car whose model is unknown or unreadable', async () => {
    useAppStore.setState({ setMenu: ['blueLockRecord-command'] });
    api.carFunctions.mockRejectedValue(new Error('offline'));
    renderBar();
    await waitFor(() => expect(screen.getByTestId('car-functions-note')).toBeTruthy());
    expect(screen.getByTestId('car-video')).toBeTruthy();
    expect(screen.getByTestId('car-lock')).toBeTruthy();
  });

  it('offers no lock command without its button permission', async () => {
    useAppStore.setState({ setMenu: [] });
    api.carFunctions.mockResolvedValue(fns({ known: false, showVideo: true, showLocks: true }));
    renderBar();
    await waitFor(() => expect(screen.getByTestId('car-functions-note')).toBeTruthy());
    expect(screen.getByTestId('car-video')).toBeTruthy();
    expect(screen.queryByTestId('car-unlock')).toBeNull();
  });
});
