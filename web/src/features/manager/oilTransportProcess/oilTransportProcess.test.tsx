import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AxiosError, AxiosHeaders } from 'axios';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../access/testing';
import { page, SLOW } from '../history/testing';
import OilTransportProcessPage from '.';
import { CorrectDialog } from './dialogs';
import { detail, trip } from './fixtures';
import { hm, phaseOf, statesAhead, timelineItems } from './timeline';
import { TripView } from './TripTimeline';

const api = vi.hoisted(() => ({ processPage: vi.fn(), processDetail: vi.fn(), correctStep: vi.fn(), enterReceived: vi.fn() }));
const stations = vi.hoisted(() => ({ viewStations: vi.fn() }));
vi.mock('../../../api/transportProcess', async (orig) => ({ ...(await orig<typeof import('../../../api/transportProcess')>()), ...api }));
vi.mock('../../../api/station', async (orig) => ({ ...(await orig<typeof import('../../../api/station')>()), ...stations }));

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  stations.viewStations.mockResolvedValue([]);
  api.processPage.mockResolvedValue(page([trip(), trip({ id: 8, no: 'G0001YD202611260002', state: 'PLANNED', late: false, flagged: false })]));
  api.processDetail.mockResolvedValue(detail());
});

describe('timeline', () => {
  it('lists creation, steps, marks and the states ahead', () => {
    const items = timelineItems(detail());
    expect(items.map((i) => `${i.kind}:${i.state}`)).toEqual([
      'created:PLANNED', 'step:DISPATCHED', 'step:LOADING', 'step:LOADED', 'step:SEALED', 'step:IN_TRANSIT', 'mark:IN_TRANSIT',
      'planned:ARRIVED', 'planned:UNSEALED', 'planned:UNLOADING', 'planned:RECEIVED', 'planned:CLOSED',
    ]);
    const arrived = items.find((i) => i.kind === 'planned' && i.state === 'ARRIVED')!;
    expect(arrived.t).toBe(detail().waybill.plannedArriveAt);
    // a departure before SEALED on a trip that left unsealed is a warning
    const d = detail({ waybill: trip({ leftUnsealed: true }) });
    d.steps[4] = { ...d.steps[4], from: 'LOADED' };
    expect(timelineItems(d).find((i) => i.kind === 'step' && i.state === 'IN_TRANSIT')).toMatchObject({ warn: true });
  });
  it('knows what lies ahead of each state', () => {
    expect(statesAhead('CLOSED')).toEqual([]);
    expect(statesAhead('CANCELLED')).toEqual([]);
    expect(statesAhead('DIFF_FLAGGED')).toEqual(['CLOSED']);
    expect(statesAhead('RECEIVED')).toEqual(['CLOSED']);
    expect(statesAhead('PLANNED')).toHaveLength(10);
    expect(hm(-1)).toBeNull();
    expect(hm(90.4)).toEqual({ h: 1, m: 30 });
    expect(phaseOf('SEALED')).toBe('loading');
    expect(phaseOf('CANCELLED')).toBeNull();
  });
});

describe('oil transport process page', { timeout: 90_000 }, () => {
  it('lists the trips and opens the chosen one', async () => {
    renderPage(<OilTransportProcessPage />, 'oilTransportProcess', []);
    expect(await screen.findByText('请在左侧选择一个运单，查看其运输过程', {}, SLOW)).toBeTruthy();
    fireEvent.click(await screen.findByText('G0001YD202611260001', {}, SLOW));
    await waitFor(() => expect(api.processDetail).toHaveBeenCalledWith(7), SLOW);
    expect(await screen.findByTestId('trip-view', {}, SLOW)).toBeTruthy();
    // no button codes: no buttons
    expect(screen.queryByRole('button', { name: /更\s*正/ })).toBeNull();
  });

  it('shows a trip on a timeline with who, place, volume, marks and the steps ahead', async () => {
    renderPage(<TripView detail={detail()} />, 'oilTransportProcess', []);
    const view = await screen.findByTestId('trip-view', {}, SLOW);
    const dispatch = within(view).getByTestId('step-1');
    expect(within(dispatch).getByText('调度员小王')).toBeTruthy();
    expect(within(within(view).getByTestId('step-2')).getByText('吴泾油库')).toBeTruthy();
    expect(within(within(view).getByTestId('step-3')).getByText('油量 9,877.0 L')).toBeTruthy();
    const mark = within(view).getByTestId('step-6');
    expect(within(mark).getByText(/途中开启/)).toBeTruthy();
    expect(within(mark).getByText('上海市闵行区附近')).toBeTruthy();
    expect(within(mark).getByText('2 号仓')).toBeTruthy();
    expect(within(mark).getByText(/上报延迟/)).toBeTruthy();
    expect(within(view).getAllByTestId('planned-step')).toHaveLength(5);
    expect(within(view).getByText('S123')).toBeTruthy();
    expect(within(view).getByText('完结后计算')).toBeTruthy();
    expect(within(view).getAllByText('逾期未到').length).toBeGreaterThan(0);
  });

  it('corrects with a required reason and says honestly when the action is not available', async () => {
    api.correctStep.mockRejectedValue(new AxiosError('404', 'ERR_BAD_REQUEST', undefined, undefined,
      { status: 404, statusText: 'Not Found', data: '404 page not found', headers: {}, config: { headers: new AxiosHeaders() } }));
    const onClose = vi.fn();
    renderPage(<CorrectDialog detail={detail()} onClose={onClose} />, 'oilTransportProcess', ['correct']);
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    expect(await within(dialog).findByText('请填写原因', {}, SLOW)).toBeTruthy();
    expect(api.correctStep).not.toHaveBeenCalled();
    fireEvent.mouseDown(within(dialog).getAllByRole('combobox')[0]);
    fireEvent.click(await screen.findByTitle('已到站', {}, SLOW));
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '围栏漏报，人工确认已到站' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.correctStep).toHaveBeenCalledWith({ waybillId: 7, state: 'ARRIVED', reason: '围栏漏报，人工确认已到站' }), SLOW);
    expect(await screen.findByText(/HTTP 404/, {}, SLOW)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});
