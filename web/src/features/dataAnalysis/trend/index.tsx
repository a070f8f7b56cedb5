import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Form, Select, Segmented, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GroupSelect } from '../../../components/GroupSelect';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { initialRange } from '../../../lib/presets';
import { compare, exportTrend, options, type Grain, type Point, type Query, type Series } from '../shared/api';
import { Chart } from '../shared/Chart';
import { ExportButton } from '../shared/ExportButton';
import { FIGURES, dayStr, fmt, fmtChange, rangeOf, stepLabel, trendOption, type Figure } from '../shared/model';
import { Tiles } from '../shared/Tiles';
import { TripsDrawer, type Drill } from '../shared/TripsDrawer';

/** 趋势分析 (05-02): the figures step by step over a period, against the same days a month and a year before, with the changes in %; every number opens its trips (D57). */
export default function TrendPage() {
  const { t } = useTranslation();
  const [range, setRange] = useState<TimeRangeValue>(() => initialRange({ this_month: true }, false));
  const [grain, setGrain] = useState<Grain>('day');
  const [groupId, setGroupId] = useState<number>();
  const [pick, setPick] = useState<string>(); // 'p:<id>' or 'r:<depot>:<station>'
  const [fig, setFig] = useState('shippedV20');
  const [drill, setDrill] = useState<Drill | null>(null);
  const ready = !!range.start && !!range.end;
  const narrow = useMemo(() => {
    if (!pick) return {};
    const [k, a, b] = pick.split(':');
    return k === 'p' ? { productId: Number(a) } : { depotId: Number(a), stationId: Number(b) };
  }, [pick]);
  const query: Query = { start: range.start, end: range.end, groupId, grain, ...narrow };
  const c = useQuery({ queryKey: ['analysisCompare', query], queryFn: () => compare(query), enabled: ready });
  const opts = useQuery({ queryKey: ['analysisOptions', range, groupId], queryFn: () => options({ start: range.start, end: range.end, groupId }), enabled: ready });
  const option = useMemo(() => (c.data ? trendOption(c.data, fig, grain, t) : null), [c.data, fig, grain, t]);
  const drillOf = (s: Series | Point, title: string, f: Figure) => {
    const p = 'period' in s ? s.period : s;
    setDrill({ title: `${title} · ${t(`analysis.fig.${f.key}`)}`, query: { ...query, ...rangeOf(p), only: f.only } });
  };
  const link = (s: Series | Point, figs: Series['totals'], f: Figure, title: string) => {
    const v = f.value(figs);
    if (v === null || f.only === undefined || figs.trips === 0) return fmt(v, f.digits);
    return <Typography.Link onClick={() => drillOf(s, title, f)}>{fmt(v, f.digits)}</Typography.Link>;
  };
  const periodText = (s: Series) => `${dayStr(s.period.from)} ~ ${dayStr(s.period.to)}`;
  const cmp = c.data;
  const compareRows = cmp ? FIGURES.map((f) => ({ f })) : [];
  const compareCols = cmp
    ? [
        { title: t('analysis.figure'), key: 'f', width: 200, render: (_: unknown, r: { f: Figure }) => t(`analysis.fig.${r.f.key}`) },
        { title: `${t('analysis.current')} (${periodText(cmp.current)})`, key: 'cur', align: 'right' as const, render: (_: unknown, r: { f: Figure }) => link(cmp.current, cmp.current.totals, r.f, t('analysis.current')) },
        { title: `${t('analysis.lastMonth')} (${periodText(cmp.lastMonth)})`, key: 'lm', align: 'right' as const, render: (_: unknown, r: { f: Figure }) => link(cmp.lastMonth, cmp.lastMonth.totals, r.f, t('analysis.lastMonth')) },
        { title: t('analysis.mom'), key: 'mom', align: 'right' as const, render: (_: unknown, r: { f: Figure }) => <Change v={cmp.mom[r.f.key]} /> },
        { title: `${t('analysis.lastYear')} (${periodText(cmp.lastYear)})`, key: 'ly', align: 'right' as const, render: (_: unknown, r: { f: Figure }) => link(cmp.lastYear, cmp.lastYear.totals, r.f, t('analysis.lastYear')) },
        { title: t('analysis.yoy'), key: 'yoy', align: 'right' as const, render: (_: unknown, r: { f: Figure }) => <Change v={cmp.yoy[r.f.key]} /> },
      ]
    : [];
  const stepCols = [
    { title: t('analysis.stepCol'), key: 'step', width: 160, fixed: 'left' as const, render: (_: unknown, p: Point) => `${dayStr(p.from)}${p.to !== p.from ? ` ~ ${dayStr(p.to).slice(5)}` : ''}` },
    ...FIGURES.map((f) => ({ title: t(`analysis.fig.${f.key}`), key: f.key, width: 110, align: 'right' as const, render: (_: unknown, p: Point) => link(p, p, f, stepLabel(p, grain)) })),
  ];
  const filterOptions = [
    { label: t('analysis.dim.product'), options: (opts.data?.products ?? []).map((o) => ({ value: `p:${o.productId}`, label: o.name })) },
    { label: t('analysis.dim.route'), options: (opts.data?.routes ?? []).map((o) => ({ value: `r:${o.depotId}:${o.stationId}`, label: o.name })) },
  ];
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="analysis-trend">
      <Card size="small">
        <Form layout="inline" style={{ rowGap: 8 }}>
          <Form.Item label={t('analysis.period')}>
            <TimeRangePicker includeOptional value={range} onChange={setRange} defaults={{ this_month: true }} />
          </Form.Item>
          <Form.Item label={t('analysis.step')}>
            <Segmented<Grain> value={grain} onChange={setGrain} options={(['day', 'week', 'month'] as Grain[]).map((g) => ({ value: g, label: t(`analysis.grain.${g}`) }))} />
          </Form.Item>
          <Form.Item label={t('analysis.company')}>
            <GroupSelect filter value={groupId} onChange={(v) => setGroupId(v as number | undefined)} />
          </Form.Item>
          <Form.Item label={t('analysis.productOrRoute')}>
            <Select allowClear showSearch optionFilterProp="label" placeholder={t('common.all')} style={{ width: 240 }} value={pick} onChange={setPick} options={filterOptions} data-testid="narrow" />
          </Form.Item>
          <ExportButton run={() => exportTrend(query)} disabled={!ready} testId="trend-export" />
        </Form>
      </Card>
      {!ready ? (
        <Empty description={t('analysis.pickPeriod')} />
      ) : (
        <>
          <Tiles totals={cmp?.current.totals} mom={cmp?.mom} yoy={cmp?.yoy} onDrill={(f) => cmp && drillOf(cmp.current, t('analysis.current'), f)} />
          <Card
            size="small"
            title={t('analysis.trendTitle')}
            extra={
              <Select
                value={fig}
                onChange={setFig}
                style={{ width: 200 }}
                data-testid="figure-pick"
                options={FIGURES.filter((f) => !(f.only === undefined && narrow && Object.keys(narrow).length)).map((f) => ({ value: f.key, label: t(`analysis.fig.${f.key}`) }))}
              />
            }
          >
            {option ? (
              <Chart option={option} height={320} testId="trend-chart" onPick={(i) => cmp?.current.points[i] && drillOf(cmp.current.points[i], stepLabel(cmp.current.points[i], grain), figure0(fig))} />
            ) : (
              <Empty style={{ height: 296 }} description={t('common.loading')} />
            )}
          </Card>
          <Card size="small" title={t('analysis.compareTitle')}>
            <Table rowKey={(r) => r.f.key} size="small" bordered loading={c.isLoading} dataSource={compareRows} columns={compareCols} pagination={false} data-testid="compare-table" />
          </Card>
          <Card size="small" title={t('analysis.stepsTitle')}>
            <Table<Point> rowKey="from" size="small" bordered loading={c.isLoading} dataSource={cmp?.current.points ?? []} columns={stepCols} pagination={false} scroll={{ x: 1500, y: 420 }} data-testid="steps-table" />
          </Card>
        </>
      )}
      <TripsDrawer key={JSON.stringify(drill?.query)} drill={drill} onClose={() => setDrill(null)} />
    </Space>
  );
}

function figure0(key: string): Figure {
  const f = FIGURES.find((x) => x.key === key)!;
  return f.only === undefined ? FIGURES[0] : f;
}

/** A change in %, uncoloured: whether a rise is good depends on the figure (more trips, more loss). */
function Change({ v }: { v: number | null | undefined }) {
  return <Typography.Text data-testid="change">{fmtChange(v)}</Typography.Text>;
}
