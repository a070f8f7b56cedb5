import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../access/testing';
import { SLOW } from '../../manager/history/testing';
import { lineOption, pieOption, rankingOption } from './charts';
import AbnormalPage from '.';

const api = vi.hoisted(() => ({ typeRatio: vi.fn(), vehicleRanking: vi.fn(), typeLine: vi.fn(), vehicleStatistics: vi.fn(), alarmTypes: vi.fn() }));
vi.mock('../../../api/alarm', async (orig) => ({ ...(await orig<typeof import('../../../api/alarm')>()), ...api }));
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), groupTrees: vi.fn().mockResolvedValue([]) }));
// jsdom has no canvas: the chart shows the option it was given
vi.mock('./Chart', () => ({ Chart: ({ testId }: { testId: string }) => <div data-testid={testId} /> }));

const line = [
  { day: '2026-03-01', type: 'speeding', name: '超速', count: 2 },
  { day: '2026-03-02', type: 'sealBroken', name: '施封破坏', count: 1 },
  { day: '2026-03-02', type: 'speeding', name: '超速', count: 4 },
];

describe('chart options', () => {
  it('pie slices are the type counts', () => {
    const o = pieOption([{ type: 'speeding', name: '超速', count: 3 }], '报警次数') as { series: { data: unknown[] }[] };
    expect(o.series[0].data).toEqual([{ name: '超速', value: 3 }]);
  });
  it('pie percentages add up to 100 and one alarm among many is not 0 %', () => {
    const rows = [
      { type: 'speeding', name: '超速', count: 1 },
      { type: 'sealBroken', name: '施封破坏', count: 1 },
      { type: 'offline', name: '离线超时', count: 1 },
      { type: 'levelDrop', name: '液位异常下降', count: 0 },
    ];
    const o = pieOption(rows, 'n') as {
      tooltip: { formatter: (p: { name: string; value: number; dataIndex: number }) => string };
      legend: { formatter: (name: string) => string };
    };
    const legends = rows.map((r) => o.legend.formatter(r.name));
    expect(legends).toEqual(['超速 34%', '施封破坏 33%', '离线超时 33%', '液位异常下降 0%']);
    expect(o.tooltip.formatter({ name: '超速', value: 1, dataIndex: 0 })).toBe('超速: 1 (34%)');
    const few = pieOption(
      [
        { type: 'speeding', name: '超速', count: 999 },
        { type: 'sealBroken', name: '施封破坏', count: 1 },
      ],
      'n',
    ) as { legend: { formatter: (name: string) => string } };
    expect(few.legend.formatter('施封破坏')).toBe('施封破坏 1%');
    expect(few.legend.formatter('超速')).toBe('超速 99%');
  });
  it('ranking puts the largest bar on top', () => {
    const o = rankingOption([{ carId: 1, carNumber: 'A', count: 9 }, { carId: 2, carNumber: 'B', count: 4 }], 'n') as { yAxis: { data: string[] } };
    expect(o.yAxis.data).toEqual(['B', 'A']);
  });
  it('one line per type, zero on days without that type', () => {
    const o = lineOption(line) as { xAxis: { data: string[] }; series: { name: string; data: number[] }[] };
    expect(o.xAxis.data).toEqual(['2026-03-01', '2026-03-02']);
    expect(o.series).toEqual([expect.objectContaining({ name: '超速', data: [2, 4] }), expect.objectContaining({ name: '施封破坏', data: [0, 1] })]);
  });
});

describe('abnormal statistics page', { timeout: 60_000 }, () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    api.typeRatio.mockResolvedValue([{ type: 'speeding', name: '超速', count: 6 }, { type: 'sealBroken', name: '施封破坏', count: 1 }]);
    api.vehicleRanking.mockResolvedValue([{ carId: 5, carNumber: '沪A·6N337', count: 7 }]);
    api.typeLine.mockResolvedValue(line);
    api.vehicleStatistics.mockResolvedValue({ list: [{ carId: 5, carNumber: '沪A·6N337', total: 7, counts: { speeding: 6, sealBroken: 1 } }], total: 1, pageNum: 1, pageSize: 10 });
    api.alarmTypes.mockResolvedValue([
      { code: 'sealBroken', sort: 2, level: 1, group: 'safety', enabled: true, push: true, name: '施封破坏', groupName: '安全类' },
      { code: 'speeding', sort: 5, level: 3, group: 'driving', enabled: true, push: false, name: '超速', groupName: '驾驶类' },
    ]);
  });

  it('asks the four statistics for the default range and shows the charts and the per-vehicle table', async () => {
    renderPage(<AbnormalPage />, 'abnormal', []);
    await waitFor(() => expect(api.typeRatio).toHaveBeenCalled(), SLOW);
    expect(api.typeRatio.mock.calls[0][0].startTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await screen.findByTestId('chart-ratio', {}, SLOW)).toBeTruthy();
    expect(await screen.findByTestId('chart-ranking', {}, SLOW)).toBeTruthy();
    expect(await screen.findByTestId('chart-line', {}, SLOW)).toBeTruthy();
    const row = (await screen.findByText('沪A·6N337', {}, SLOW)).closest('tr')!;
    expect(row.textContent).toContain('716'); // total 7, 施封破坏 1, 超速 6
  });

  it('says so when the range has no alarms', async () => {
    api.typeRatio.mockResolvedValue([]);
    api.vehicleRanking.mockResolvedValue([]);
    api.typeLine.mockResolvedValue([]);
    renderPage(<AbnormalPage />, 'abnormal', []);
    expect((await screen.findAllByText('所选时间范围内没有报警', {}, SLOW)).length).toBe(3);
  });
});
