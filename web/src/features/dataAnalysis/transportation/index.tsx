import { useQuery } from '@tanstack/react-query';
import { Card, Col, Drawer, Empty, Form, List, Row as AntRow, Segmented, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GroupSelect } from '../../../components/GroupSelect';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { initialRange } from '../../../lib/presets';
import { TripPanel } from '../../manager/oilTransportProcess/TripTimeline';
import { breakdown, exportBreakdown, top5, type Dim, type Query, type Row } from '../shared/api';
import { Chart } from '../shared/Chart';
import { ExportButton } from '../shared/ExportButton';
import { FIGURES, breakdownOption, fmt, rowFilter, type Figure } from '../shared/model';
import { Tiles } from '../shared/Tiles';
import { TripsDrawer, type Drill } from '../shared/TripsDrawer';

// the chart shows the largest rows by V20 (a long route list stays readable); the table lists them all
const CHART_ROWS = 12;

/** 运输分析 (05-01): a period's volumes, losses, ton-km and abnormal events by company, product or route, with totals, the five largest V20 losses and the out-to-arrival time per route; every number opens its trips (D57). */
export default function TransportationPage() {
  const { t } = useTranslation();
  const [range, setRange] = useState<TimeRangeValue>(() => initialRange({ this_month: true }, false));
  const [groupId, setGroupId] = useState<number>();
  const [dim, setDim] = useState<Dim>('company');
  const [drill, setDrill] = useState<Drill | null>(null);
  const [trip, setTrip] = useState(0);
  const ready = !!range.start && !!range.end;
  const query: Query = { start: range.start, end: range.end, groupId, dim };
  const b = useQuery({ queryKey: ['analysisBreakdown', query], queryFn: () => breakdown(query), enabled: ready });
  const top = useQuery({ queryKey: ['analysisTop5', range, groupId], queryFn: () => top5({ start: range.start, end: range.end, groupId }), enabled: ready });
  const rows = useMemo(() => b.data?.rows ?? [], [b.data]);
  const chartRows = useMemo(() => rows.slice(0, CHART_ROWS), [rows]);
  const option = useMemo(() => breakdownOption(chartRows, t), [chartRows, t]);
  const base = { start: range.start, end: range.end, groupId };
  const drillTotal = (f: Figure) => setDrill({ title: `${t(`analysis.fig.${f.key}`)} · ${t('analysis.allRows')}`, query: { ...base, only: f.only } });
  const drillRow = (r: Row, f: Figure) =>
    setDrill({ title: `${r.name} · ${t(`analysis.fig.${f.key}`)}`, query: { ...base, ...rowFilter(dim, r), only: f.only } });

  const cell = (f: Figure) => ({
    title: t(`analysis.fig.${f.key}`),
    key: f.key,
    width: f.key === 'shippedV20' ? 130 : 110,
    align: 'right' as const,
    sorter: (x: Row, y: Row) => (f.value(x) ?? -1) - (f.value(y) ?? -1),
    render: (_: unknown, r: Row) => {
      const v = f.value(r);
      if (v === null || f.only === undefined || r.trips === 0) return fmt(v, f.digits);
      return (
        <Typography.Link onClick={() => drillRow(r, f)} data-testid={`cell-${f.key}`}>
          {fmt(v, f.digits)}
        </Typography.Link>
      );
    },
  });
  const spread = (k: 'minMin' | 'maxMin' | 'stdMin', label: string) => ({
    title: t(label),
    key: k,
    width: 100,
    align: 'right' as const,
    render: (_: unknown, r: Row) => fmt(r.spread && r.spread[k] >= 0 ? r.spread[k] : null, 1),
  });
  const columns = [
    { title: t(`analysis.dim.${dim}`), dataIndex: 'name', key: 'name', width: 220, fixed: 'left' as const, render: (v: string) => v || '—' },
    ...FIGURES.map(cell),
    ...(dim === 'route' ? [spread('minMin', 'analysis.minOut'), spread('maxMin', 'analysis.maxOut'), spread('stdMin', 'analysis.stdOut')] : []),
  ];
  const tot = b.data?.totals;
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="analysis-transportation">
      <Card size="small">
        <Form layout="inline" style={{ rowGap: 8 }}>
          <Form.Item label={t('analysis.period')}>
            <TimeRangePicker includeOptional value={range} onChange={setRange} defaults={{ this_month: true }} />
          </Form.Item>
          <Form.Item label={t('analysis.company')}>
            <GroupSelect filter value={groupId} onChange={(v) => setGroupId(v as number | undefined)} />
          </Form.Item>
          <Form.Item label={t('analysis.by')}>
            <Segmented<Dim>
              value={dim}
              onChange={setDim}
              options={(['company', 'product', 'route'] as Dim[]).map((d) => ({ value: d, label: t(`analysis.dim.${d}`) }))}
              data-testid="dim-switch"
            />
          </Form.Item>
          <ExportButton run={() => exportBreakdown(query)} disabled={!ready} testId="analysis-export" />
        </Form>
      </Card>
      {!ready ? (
        <Empty description={t('analysis.pickPeriod')} />
      ) : (
        <>
          <Tiles totals={tot} onDrill={drillTotal} />
          <AntRow gutter={12}>
            <Col xs={24} xl={16}>
              <Card size="small" style={{ height: '100%' }} title={t(rows.length > CHART_ROWS ? 'analysis.chartTitleTop' : 'analysis.chartTitle', { dim: t(`analysis.dim.${dim}`), n: CHART_ROWS })}>
                {rows.length ? (
                  <Chart option={option} height={400} testId="breakdown-chart" onPick={(i) => chartRows[i] && drillRow(chartRows[i], FIGURES[0])} />
                ) : (
                  <Empty style={{ height: 376 }} description={b.isLoading ? t('common.loading') : t('analysis.noTrips')} />
                )}
              </Card>
            </Col>
            <Col xs={24} xl={8}>
              <Card size="small" title={t('analysis.top5')} style={{ height: '100%' }} data-testid="top5">
                <List
                  size="small"
                  loading={top.isLoading}
                  dataSource={top.data ?? []}
                  locale={{ emptyText: t('analysis.noLoss') }}
                  renderItem={(r, i) => (
                    <List.Item extra={<Typography.Text type={r.over ? 'danger' : undefined}>{fmt(r.lossL, 1)} L · {fmt(r.lossRatePct, 4)} %</Typography.Text>}>
                      <List.Item.Meta
                        title={
                          <Typography.Link onClick={() => setTrip(r.id)}>
                            {i + 1}. {r.no}
                          </Typography.Link>
                        }
                        description={
                          <Typography.Text type="secondary" ellipsis={{ tooltip: true }} style={{ maxWidth: 300 }}>
                            {`${r.plate} · ${r.depotName} → ${r.stationName || '—'}`}
                          </Typography.Text>
                        }
                      />
                    </List.Item>
                  )}
                />
              </Card>
            </Col>
          </AntRow>
          <Table<Row>
            rowKey={(r) => `${r.key}-${r.depotId ?? 0}-${r.stationId ?? 0}`}
            size="small"
            bordered
            loading={b.isLoading}
            dataSource={rows}
            columns={columns}
            pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
            scroll={{ x: 1700 }}
            locale={{ emptyText: t('analysis.noTrips') }}
            data-testid="breakdown-table"
            summary={() =>
              tot && (
                <Table.Summary fixed>
                  <Table.Summary.Row data-testid="breakdown-totals">
                    <Table.Summary.Cell index={0}>
                      <Typography.Text strong>{t('analysis.totals')}</Typography.Text>
                    </Table.Summary.Cell>
                    {FIGURES.map((f, i) => (
                      <Table.Summary.Cell key={f.key} index={i + 1} align="right">
                        <Typography.Text strong>{fmt(f.value(tot), f.digits)}</Typography.Text>
                      </Table.Summary.Cell>
                    ))}
                    {dim === 'route' && <Table.Summary.Cell index={FIGURES.length + 1} colSpan={3} />}
                  </Table.Summary.Row>
                </Table.Summary>
              )
            }
          />
          {dim !== 'company' && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t(dim === 'product' ? 'analysis.productNote' : 'analysis.routeNote')}
            </Typography.Text>
          )}
        </>
      )}
      <TripsDrawer key={JSON.stringify(drill?.query)} drill={drill} onClose={() => setDrill(null)} />
      <Drawer open={trip > 0} width="min(1280px, 96vw)" onClose={() => setTrip(0)} title={t('analysis.timeline')} destroyOnHidden>
        {trip > 0 && <TripPanel waybillId={trip} />}
      </Drawer>
    </Space>
  );
}
