import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Form, Select, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { statExport, statPage, type DrillQuery, type StatKind, type StatPage as StatPageData, type StatQuery, type StatRow } from '../../../api/tripStats';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { initialRange } from '../../../lib/presets';
import { DrillDrawer } from './DrillDrawer';
import { drillable, FIGURES, nameKey, productOptions, toStatFilters, type FigureColumn } from './model';
import { StatChart } from './StatChart';

type Filters = Omit<StatQuery, 'pageNum' | 'pageSize'>;
type Drill = { query: Omit<DrillQuery, 'pageNum' | 'pageSize'>; title: string };

const RANGE_DEFAULTS = { this_month: true } as const;

/**
 * carStat, compStat, transportProductStat (04-28…04-30) and their sales-company twins (04-31…04-33, D50):
 * the finished trips' figures per car, company or product over whole days, sortable, with the totals of
 * every row, a chart, the trips behind every number, and the xlsx export.
 */
export function StatPage({ kind, sales }: { kind: StatKind; sales: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [initial] = useState(() => ({ range: initialRange(RANGE_DEFAULTS, false) }) as Partial<Filters>);
  // the filters the list was last read with (ListPage starts from the same initial ones on a remount)
  const [filters, setFilters] = useState<Filters>(() => toStatFilters(initial as Record<string, unknown>) as Filters);
  const [drill, setDrill] = useState<Drill>();
  // the totals, the chart's rows and the period come with every page of the list: the list's fetch puts
  // them in the cache under the filters, so a remount that is served the cached list finds them too
  const summaryKey = (f: Filters) => ['tripStatsSummary', kind, sales, f];
  const { data } = useQuery<StatPageData>({ queryKey: summaryKey(filters), enabled: false });

  const open = (f: FigureColumn, row: StatRow | undefined) => {
    const q = { ...filters, sales, kind, only: f.only, ...(row ? { key: row.key } : { all: true }) };
    const who = row ? row.name : t('tripStats.total');
    setDrill({ query: q, title: t('tripStats.drillTitle', { who, what: t(`tripStats.${f.key}`), from: data?.from, to: data?.to }) });
  };
  const cell = (f: FigureColumn, row: StatRow | undefined, v: number) => {
    const testId = row ? undefined : `total-${f.key}`;
    if (!drillable(f, v, (row ?? data?.sum)?.trips ?? 0)) return <span data-testid={testId}>{f.format(v)}</span>;
    return (
      <Typography.Link onClick={() => open(f, row)} data-testid={testId}>
        {f.format(v)}
      </Typography.Link>
    );
  };

  const columns = [
    {
      title: t(nameKey(kind, sales)),
      dataIndex: 'name',
      key: 'name',
      width: kind === 'car' ? 170 : 200,
      fixed: 'left' as const,
      sorter: true,
      render: (v: string, r: StatRow) => (
        <span>
          {v || `#${r.key}`}
          {r.groupName && (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {r.groupName}
            </Typography.Text>
          )}
        </span>
      ),
    },
    ...FIGURES.map((f) => ({
      title: t(`tripStats.${f.key}`),
      dataIndex: f.key,
      key: f.key,
      width: f.width,
      align: 'right' as const,
      sorter: true,
      render: (v: number, r: StatRow) => cell(f, r, v),
    })),
  ];
  const sum = data?.sum;
  return (
    <>
      <ListPage<StatRow, Filters>
        queryKey={`tripStats-${kind}-${sales ? 2 : 1}`}
        rowKey="key"
        fetch={async (q) => {
          const { pageNum: _p, pageSize: _s, sortField: _f, sortOrder: _o, ...f } = q;
          const r = await statPage(kind, { ...q, sales });
          qc.setQueryData(summaryKey(f), r);
          setFilters(f);
          return r;
        }}
        initialFilters={initial}
        toFilters={toStatFilters}
        exportRequest={(f) => statExport(kind, { ...f, sales })}
        exportCode="export"
        title={data && t('tripStats.period', { from: data.from, to: data.to })}
        filters={
          <>
            <Form.Item name="range" label={t('tripStats.closedDay')}>
              <TimeRangePicker includeOptional defaults={RANGE_DEFAULTS} />
            </Form.Item>
            <Form.Item name="groupId" label={t(sales ? 'tripStats.salesCompany' : 'tripStats.company')}>
              <GroupSelect style={{ width: 200 }} />
            </Form.Item>
            {kind === 'car' && (
              <Form.Item name="carId" label={t('tripStats.plate')}>
                <VehiclePicker placeholder={t('common.all')} />
              </Form.Item>
            )}
            <Form.Item name="productId" label={t('tripStats.product')}>
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder={t('common.all')}
                options={productOptions(data?.products)}
                style={{ width: 200 }}
                data-testid="product-filter"
              />
            </Form.Item>
          </>
        }
        tableProps={{
          scroll: { x: columns.reduce((n, c) => n + c.width, 0) },
          locale: { emptyText: t('tripStats.empty') },
          summary: () =>
            sum && (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="totals-row">
                  <Table.Summary.Cell index={0}>
                    <Typography.Text strong>{t('tripStats.total')}</Typography.Text>
                  </Table.Summary.Cell>
                  {FIGURES.map((f, i) => (
                    <Table.Summary.Cell key={f.key} index={i + 1} align="right">
                      <Typography.Text strong>{cell(f, undefined, sum[f.key])}</Typography.Text>
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              </Table.Summary>
            ),
        }}
        columns={columns}
      />
      {data && (data.top?.length ?? 0) > 0 && (
        <Card size="small" title={t(kind === 'product' ? 'tripStats.chartShare' : 'tripStats.chartTop')} style={{ marginTop: 12 }}>
          <StatChart kind={kind} top={data.top} />
        </Card>
      )}
      <DrillDrawer query={drill?.query} title={drill?.title ?? ''} onClose={() => setDrill(undefined)} />
    </>
  );
}
