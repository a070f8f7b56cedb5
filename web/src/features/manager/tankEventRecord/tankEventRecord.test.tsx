import { screen, within } from '@testing-library/react';
import i18n from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { GaugeView, TankEvent } from '../../../api/groundTank';
import { renderPage } from '../../access/testing';
import { calledWith, page, SLOW } from '../history/testing';
import TankEventRecordPage from '.';
import { detailText, timeText, trendHref } from './format';

const api = vi.hoisted(() => ({ tankEventPage: vi.fn(), groundTankStatus: vi.fn(), groundGauges: vi.fn() }));
const groups = vi.hoisted(() => ({ groupTrees: vi.fn() }));
vi.mock('../../../api/groundTank', async (orig) => ({ ...(await orig<typeof import('../../../api/groundTank')>()), ...api }));
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), ...groups }));

const at = Date.UTC(2026, 10, 26, 1, 5, 0); // 09:05 in Shanghai
const events: TankEvent[] = [
  { id: 2, tankId: 7, stationId: 3, stationName: '中国石化北京马家堡加油站', tankNo: 1, tankName: '1号罐 92#汽油', product: 1, kind: 'delivery',
    startAt: at, endAt: at + 20 * 60_000, beforeL: 8000, afterL: 18000, beforeV20: 7990, afterV20: 17980, detail: { received: 9950 } },
  { id: 1, tankId: 8, stationId: 3, stationName: '中国石化北京马家堡加油站', tankNo: 2, tankName: '2号罐 95#汽油', product: 2, kind: 'gaugeAlarm',
    startAt: at - 3600_000, endAt: null, beforeL: 12000, afterL: 0, beforeV20: 11990, afterV20: 0, detail: { code: 9, alarm: 'highWaterWarning' } },
];
const gauges: GaugeView[] = [
  { addr: '127.0.0.1:40001', state: 'offline', since: at, lastError: 'dial tcp: connection refused', lastOk: 0, stations: ['中国石油北京通州加油站'],
    tanks: [{ tankId: 9, stationName: '中国石油北京通州加油站', tankNo: 1, name: '1号罐' }] },
  { addr: '127.0.0.1:40002', state: 'online', since: at, lastError: '', lastOk: at, stations: ['中国石化北京马家堡加油站'],
    tanks: [{ tankId: 7, stationName: '中国石化北京马家堡加油站', tankNo: 1, name: '1号罐' }] },
];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  groups.groupTrees.mockResolvedValue([]);
  api.tankEventPage.mockResolvedValue(page(events));
  api.groundGauges.mockResolvedValue(gauges);
  api.groundTankStatus.mockResolvedValue([]);
});

describe('tank event record', { timeout: 60_000 }, () => {
  it('formats details, times and the trend link', () => {
    const t = i18n.getFixedT('zh-CN');
    expect(detailText(t, events[1])).toBe('高水位预警');
    expect(detailText(t, { ...events[1], detail: { code: 42 } })).toBe('报警类型 42');
    expect(detailText(t, events[0])).toBe('入库 9,950 L（温补）');
    expect(timeText(at)).toBe('2026-11-26 09:05:00');
    expect(timeText(0)).toBe('');
    expect(trendHref(events[0])).toBe(`/manager/hydtrend2?tankId=7&at=${at}`);
  });

  it('lists the events of the default range and the gauges with their states', async () => {
    renderPage(<TankEventRecordPage />, 'tankEventRecord', []);
    await calledWith(api.tankEventPage, { pageNum: 1, pageSize: 10 });
    const q = api.tankEventPage.mock.calls[0][0] as Record<string, unknown>;
    expect(q.startTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const del = (await screen.findByText('卸油入库', {}, SLOW)).closest('tr')!;
    expect(within(del).getByText('8,000 → 18,000')).toBeTruthy();
    expect(within(del).getByText('7,990 → 17,980')).toBeTruthy();
    expect(within(del).getByText('2026-11-26 09:25:00')).toBeTruthy();
    expect(within(del).getByRole('link', { name: '趋势' }).getAttribute('href')).toBe(`/manager/hydtrend2?tankId=7&at=${at}`);
    const alarm = screen.getByText('液位仪报警').closest('tr')!;
    expect(within(alarm).getByText('进行中')).toBeTruthy();
    expect(within(alarm).getByText('高水位预警')).toBeTruthy();
    // a gauge is offline: the panel is unfolded and shows it first with its error
    const panel = screen.getByTestId('gauge-panel');
    expect(await within(panel).findByText('dial tcp: connection refused', {}, SLOW)).toBeTruthy();
    expect(within(panel).getByText('在线 1')).toBeTruthy();
    expect(within(panel).getByText('离线 1')).toBeTruthy();
  });
});
