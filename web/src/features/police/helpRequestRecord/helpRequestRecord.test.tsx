import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { HelpRecord } from '../../../api/help';
import { renderPage } from '../../access/testing';
import { calledWith, page, search, SLOW } from '../../manager/history/testing';
import HelpRequestRecordPage from '.';

const api = vi.hoisted(() => ({ pageHelpRecords: vi.fn(), dealHelp: vi.fn() }));
vi.mock('../../../api/help', async (orig) => ({ ...(await orig<typeof import('../../../api/help')>()), ...api }));
vi.mock('./HelpMap', () => ({ default: () => <div data-testid="help-map-stub" /> }));

const base: HelpRecord = {
  id: 1, carId: 6, carNumber: '冀A·3K281', terminalId: 9, groupId: 3, groupName: '华北分公司', requestType: 1, requestId: 1,
  requestTime: '2026-03-01 16:00:00', lng: 114.5149, lat: 38.0423, speed: 35.2, address: '河北省石家庄市', stationId: 0, stationName: '',
  status: 'pending', dealType: 0, dealtBy: '', dealtAt: null, commandId: 0, result: '',
};
const records: HelpRecord[] = [
  base,
  { ...base, id: 2, carNumber: '沪A·6N337', requestType: 2, status: 'done', dealType: 2, dealtBy: 'admin', dealtAt: '2026-03-01 16:05:00', lng: 0, lat: 0, address: '' },
  { ...base, id: 3, carNumber: '粤A·7M482', status: 'ignored', dealType: 3, dealtBy: 'dispatcher' },
];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageHelpRecords.mockResolvedValue(page(records));
  document.body.innerHTML = '';
});

const row = async (plate: string) => (await screen.findByText(plate, {}, SLOW)).closest('tr')!;

describe('help request record page', { timeout: 60_000 }, () => {
  it('lists the records of the last 7 days with status tags; only pending ones can be dealt with', async () => {
    renderPage(<HelpRequestRecordPage />, 'helpRequestRecord', ['deal', 'export']);
    await calledWith(api.pageHelpRecords, { pageNum: 1, pageSize: 10 });
    const q = api.pageHelpRecords.mock.calls[0][0] as Record<string, unknown>;
    expect(q.startTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const pending = await row('冀A·3K281');
    expect(within(pending).getByText('待处理')).toBeTruthy();
    expect(within(pending).getByText('开锁')).toBeTruthy();
    expect(within(pending).getByText('35.2 km/h')).toBeTruthy();
    expect(within(pending).getByRole('button', { name: /处\s*理/ })).toBeTruthy();
    const done = await row('沪A·6N337');
    expect(within(done).getByText('已处理')).toBeTruthy();
    expect(within(done).getByText('未定位')).toBeTruthy();
    expect(within(done).queryByRole('button', { name: /处\s*理/ })).toBeNull();
    expect(within(await row('粤A·7M482')).getByText('已忽略')).toBeTruthy();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();
  });

  it('hides deal and export without their buttons', async () => {
    renderPage(<HelpRequestRecordPage />, 'helpRequestRecord', []);
    const pending = await row('冀A·3K281');
    expect(within(pending).queryByRole('button', { name: /处\s*理/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
  });

  it('filters by plate (trimmed)', async () => {
    renderPage(<HelpRequestRecordPage />, 'helpRequestRecord', ['deal']);
    await row('冀A·3K281');
    fireEvent.change(document.querySelector('input#carNumber')!, { target: { value: ' 冀A ' } });
    search();
    await calledWith(api.pageHelpRecords, { carNumber: '冀A' });
  });

  it('deals from the row: the view opens, unlock is sent, the list reloads', async () => {
    api.dealHelp.mockResolvedValue({ ...base, status: 'done' });
    renderPage(<HelpRequestRecordPage />, 'helpRequestRecord', ['deal']);
    fireEvent.click(within(await row('冀A·3K281')).getByRole('button', { name: /处\s*理/ }));
    const view = await screen.findByTestId('help-view', {}, SLOW);
    expect(within(view).getByText('河北省石家庄市')).toBeTruthy();
    const calls = api.pageHelpRecords.mock.calls.length;
    fireEvent.click(within(view).getByRole('button', { name: /^开\s*锁$/ }));
    await waitFor(() => expect(api.dealHelp).toHaveBeenCalledWith(1, 1), SLOW);
    expect(await screen.findByText('操作成功', {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(api.pageHelpRecords.mock.calls.length).toBeGreaterThan(calls), SLOW);
  });
});
