import { Card, Form, Input, Radio, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { statExport, statPage, type StatPageName, type StatQuery, type StatResult, type StatRow } from '../../../api/lockStats';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { initialRange } from '../../../lib/presets';
import { Chart } from '../../police/abnormal/Chart';
import { DrillDrawer, type DrillTarget } from './DrillDrawer';
import { Duration } from './Duration';
import { HeaderText, headerWidth } from './HeaderText';
import { FIGURES, PAGES, anyFigure, chartOption, groupings, rowKey, toStatFilters } from './model';

type Filters = Omit<StatQuery, 'pageNum' | 'pageSize'>;
type Row = StatRow & { key: string };

/** The month pages open on the last year; the others on this month. */
const rangeDefaults = (period: string) => (period === 'month' ? { last_1_year: true } : { this_month: true });

/** A week's label on two lines: "2026-W48" over its days. */
function PeriodLabel({ label }: { label: string }) {
  const [head, days] = label.split(' (');
  if (!days) return <>{label}</>;
  return (
    <span>
      {head}
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
        {days.replace(/\)$/, '')}
      </Typography.Text>
    </span>
  );
}

/**
 * The lock and seal statistics pages (D54): period × car / company (or per lock) with every figure,
 * the totals of the filtered set, a chart by period, and each number opening the rows behind it.
 */
export function StatPage({ page }: { page: StatPageName }) {
  const { t } = useTranslation();
  const { kind, period } = PAGES[page];
  const [result, setResult] = useState<StatResult>();
  const [filters, setFilters] = useState<Filters>({});
  const [drill, setDrill] = useState<DrillTarget>();
  const by = (filters.by ?? groupings(page)[0]) as string;
  const figures = FIGURES[kind];
  const label = (k: string) => t(`lockStats.figure.${k}`);

  const open = (r: Pick<StatRow, 'from' | 'to' | 'carId' | 'groupId' | 'serial'>, col: string, value: number, name: string) =>
    setDrill({
      kind,
      column: col,
      from: r.from,
      to: r.to,
      groupId: filters.groupId,
      carId: r.carId ?? filters.carId,
      companyId: r.groupId,
      serial: r.serial ?? filters.serial,
      value,
      title: `${label(col)} · ${name}`,
    });
  const cell = (col: string, duration?: boolean) => (v: number, r: Row) => {
    const shown = duration ? <Duration s={v} /> : v;
    if (!v) return <Typography.Text type="secondary">{duration ? '—' : 0}</Typography.Text>;
    return (
      <Typography.Link data-testid={`cell-${col}`} onClick={() => open(r, col, v, `${r.name}${r.label ? ` · ${r.label}` : ''}`)}>
        {shown}
      </Typography.Link>
    );
  };
  const fig = (c: (typeof figures)[number]) => ({
    title: <HeaderText text={label(c.key)} />,
    dataIndex: ['figures', c.key],
    key: c.key,
    width: headerWidth(label(c.key), c.duration ? 124 : c.group ? 86 : 98),
    align: 'right' as const,
    sorter: true,
    render: cell(c.key, c.duration),
  });
  const columns: ColumnsType<Row> = [
    ...(period === 'all'
      ? []
      : [
          {
            title: <HeaderText text={t(`lockStats.period.${period}`)} />,
            dataIndex: 'label',
            key: 'period',
            width: period === 'week' ? 120 : 104,
            fixed: 'left' as const,
            sorter: true,
            render: (v: string) => <PeriodLabel label={v} />,
          },
        ]),
    {
      title: <HeaderText text={t(`lockStats.by.${by}`)} />,
      dataIndex: 'name',
      key: 'name',
      width: 132,
      fixed: 'left' as const,
      sorter: true,
      render: (v: string, r: Row) => (
        <span>
          {v || '—'}
          {r.detail && (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {by === 'lock' ? t('lockStats.onCar', { plate: r.detail }) : r.detail}
            </Typography.Text>
          )}
        </span>
      ),
    },
    ...(kind === 'lock'
      ? [
          fig(figures[0]),
          { title: <HeaderText text={t('lockStats.byMethod')} />, key: 'method', children: figures.filter((c) => c.group === 'method').map(fig) },
          { title: <HeaderText text={t('lockStats.byFence')} />, key: 'fence', children: figures.filter((c) => c.group === 'fence').map(fig) },
          ...figures.filter((c) => !c.group && c.key !== 'opened').map(fig),
        ]
      : figures.map(fig)),
  ];
  const leaves = figures.map((c) => c.key);
  const lead = period === 'all' ? 1 : 2;

  const totals = result?.totals;
  const summary = () =>
    totals && (
      <Table.Summary fixed>
        <Table.Summary.Row data-testid="totals-row">
          <Table.Summary.Cell index={0} colSpan={lead}>
            <Typography.Text strong>{t('lockStats.total')}</Typography.Text>
            {result && (
              <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                {result.from} ～ {result.to}
              </Typography.Text>
            )}
          </Table.Summary.Cell>
          {leaves.map((k, i) => {
            const v = totals[k] ?? 0;
            const c = figures.find((f) => f.key === k);
            return (
              <Table.Summary.Cell key={k} index={lead + i} align="right">
                {v ? (
                  <Typography.Link strong data-testid={`total-${k}`} onClick={() => result && open({ from: result.from, to: result.to }, k, v, t('lockStats.total'))}>
                    {c?.duration ? <Duration s={v} /> : v}
                  </Typography.Link>
                ) : (
                  <Typography.Text type="secondary" data-testid={`total-${k}`}>
                    {c?.duration ? '—' : 0}
                  </Typography.Text>
                )}
              </Table.Summary.Cell>
            );
          })}
        </Table.Summary.Row>
      </Table.Summary>
    );

  const option = useMemo(
    () => chartOption(kind, period, result?.chart ?? [], result?.list ?? [], label, (s) => t(`lockStats.stack.${s}`)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [result, kind, period, t],
  );
  const opts = groupings(page);
  return (
    <>
      <ListPage<Row, Filters>
        queryKey={`lockStats-${page}`}
        rowKey="key"
        fetch={async (q) => {
          const r = await statPage(page, q);
          setResult(r);
          setFilters(q);
          return { ...r, list: r.list.map((x) => ({ ...x, key: rowKey(x) })) };
        }}
        initialFilters={{ range: initialRange(rangeDefaults(period), false), by: opts[0] } as Partial<Filters>}
        toFilters={toStatFilters}
        exportRequest={(f) => statExport(page, { ...f })}
        title={
          <span>
            {t(`menu.${page}`)}
            {result && (period === 'week' || period === 'month') && (
              <Typography.Text type="secondary" style={{ marginLeft: 12, fontSize: 13, fontWeight: 'normal' }}>
                {t(`lockStats.whole.${period}`, { from: result.from, to: result.to })}
              </Typography.Text>
            )}
          </span>
        }
        filters={
          <>
            <Form.Item name="range" label={t('lockStats.range')}>
              <TimeRangePicker includeOptional defaults={rangeDefaults(period)} />
            </Form.Item>
            {opts.length > 1 && (
              <Form.Item name="by" label={t('lockStats.grouping')}>
                <Radio.Group optionType="button" options={opts.map((o) => ({ value: o, label: t(`lockStats.by.${o}`) }))} />
              </Form.Item>
            )}
            <Form.Item name="groupId" label={t('lockStats.company')}>
              <GroupSelect filter />
            </Form.Item>
            <Form.Item name="carId" label={t('lockStats.plate')}>
              <VehiclePicker allowClear placeholder={t('common.all')} style={{ width: 160 }} />
            </Form.Item>
            {kind === 'lock' && (
              <Form.Item name="serial" label={t('lockStats.serial')}>
                <Input allowClear placeholder={t('common.all')} style={{ width: 150 }} />
              </Form.Item>
            )}
          </>
        }
        tableProps={{
          bordered: true,
          locale: { emptyText: t(`lockStats.empty.${kind}`) },
          summary,
        }}
        columns={columns}
      />
      <div className="tw-page">
      <Card variant="borderless" title={t(period === 'all' ? 'lockStats.chartTopLocks' : `lockStats.chart.${kind}`)}>
        {anyFigure(result?.totals) ? (
          <Chart option={option} height={300} testId="lockstats-chart" />
        ) : (
          <Typography.Text type="secondary">{t(`lockStats.empty.${kind}`)}</Typography.Text>
        )}
      </Card>
      </div>
      <DrillDrawer target={drill} onClose={() => setDrill(undefined)} />
    </>
  );
}
