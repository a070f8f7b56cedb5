import { Drawer, Form, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { recordExport, recordPage, type ProcessQuery, type Totals, type Trip } from '../../../api/transportProcess';
import { ListPage } from '../../../components/ListPage';
import { initialRange } from '../../../lib/presets';
import { ProcessFilters, toProcessFilters } from '../oilTransportProcess/filters';
import { fmtL, fmtTime } from '../oilTransportProcess/timeline';
import { Duration, StateTag, TripMarks, TripPanel } from '../oilTransportProcess/TripTimeline';

type Filters = Omit<ProcessQuery, 'pageNum' | 'pageSize'>;

const RANGE_DEFAULTS = { this_month: true } as const;

/** The totals row of the filtered set (all pages), under the table. */
function TotalsRow({ totals, cols }: { totals?: Totals; cols: number }) {
  const { t } = useTranslation();
  if (!totals) return null;
  const cells: [number, React.ReactNode][] = [
    [0, <Typography.Text strong key="n">{t('transportRecord.totals', { n: totals.trips })}</Typography.Text>],
    [4, fmtL(totals.shippedV20)],
    [5, fmtL(totals.receivedV20)],
    [6, fmtL(totals.lossL)],
    [7, `${totals.lossRatePct.toFixed(4)} %`],
    [8, <Typography.Text key="o" type={totals.overCount ? 'danger' : undefined}>{t('transportRecord.overCount', { n: totals.overCount })}</Typography.Text>],
    [9, totals.loadedKm.toFixed(1)],
    [10, totals.tonKm.toFixed(1)],
    [11, <span key="a">{t('transportRecord.avg')} <Duration min={totals.avgOutToArrivalMin} /></span>],
  ];
  return (
    <Table.Summary fixed>
      <Table.Summary.Row data-testid="totals-row">
        {Array.from({ length: cols }, (_, i) => (
          <Table.Summary.Cell key={i} index={i} align={i >= 4 && i <= 10 ? 'right' : undefined}>
            {cells.find(([c]) => c === i)?.[1]}
          </Table.Summary.Cell>
        ))}
      </Table.Summary.Row>
    </Table.Summary>
  );
}

/** 运输记录 (04-11): the finished trips with every figure, the totals of the filtered set, and each trip's timeline (D46). */
export default function TransportRecordPage() {
  const { t } = useTranslation();
  const [totals, setTotals] = useState<Totals>();
  const [open, setOpen] = useState(0);
  const columns = [
    {
      title: t('transportProcess.no'),
      dataIndex: 'no',
      key: 'no',
      width: 190,
      fixed: 'left' as const,
      sorter: true,
      render: (v: string, r: Trip) => (
        <span>
          <Typography.Link onClick={() => setOpen(r.id)}>{v}</Typography.Link>
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {r.plate} · {r.groupName}
          </Typography.Text>
        </span>
      ),
    },
    {
      title: t('transportProcess.state'),
      dataIndex: 'state',
      key: 'state',
      width: 120,
      render: (_: unknown, r: Trip) => (
        <Space size={2} direction="vertical">
          <StateTag state={r.state} />
          <span>
            <TripMarks trip={{ ...r, late: false }} />
          </span>
        </Space>
      ),
    },
    {
      title: t('transportProcess.route'),
      key: 'route',
      width: 200,
      render: (_: unknown, r: Trip) => `${r.depotName} → ${r.destinations.map((d) => d.stationName).join('、') || '—'}`,
    },
    { title: t('transportRecord.closedAt'), dataIndex: 'closedAt', key: 'closedAt', width: 160, sorter: true, render: (v: number) => fmtTime(v) },
    { title: t('transportProcess.shippedV20'), dataIndex: 'shippedV20', key: 'shippedV20', width: 120, sorter: true, align: 'right' as const, render: (v: number) => fmtL(v) },
    {
      title: t('transportProcess.receivedV20'),
      dataIndex: 'receivedV20',
      key: 'receivedV20',
      width: 150,
      sorter: true,
      align: 'right' as const,
      render: (v: number, r: Trip) => (
        <span>
          {fmtL(v)}
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {t(`waybillCommon.received.${r.receivedSource}`)}
          </Typography.Text>
        </span>
      ),
    },
    { title: t('transportProcess.lossL'), dataIndex: 'lossL', key: 'lossL', width: 100, sorter: true, align: 'right' as const, render: (v: number) => fmtL(v) },
    {
      title: t('transportProcess.lossRate'),
      dataIndex: 'lossRatePct',
      key: 'lossRatePct',
      width: 110,
      sorter: true,
      align: 'right' as const,
      render: (v: number, r: Trip) => <Typography.Text type={r.over ? 'danger' : undefined}>{`${v.toFixed(4)} %`}</Typography.Text>,
    },
    {
      title: t('transportRecord.allowance'),
      key: 'allowance',
      width: 130,
      render: (_: unknown, r: Trip) => (
        <Space size={4}>
          {`${r.allowedPct.toFixed(2)} %`}
          <Tag color={r.over ? 'red' : 'green'}>{t(r.over ? 'transportProcess.over' : 'transportProcess.within')}</Tag>
        </Space>
      ),
    },
    { title: t('transportProcess.loadedKm'), dataIndex: 'loadedKm', key: 'loadedKm', width: 100, sorter: true, align: 'right' as const, render: (v: number) => v.toFixed(1) },
    { title: t('transportProcess.tonKm'), dataIndex: 'tonKm', key: 'tonKm', width: 100, align: 'right' as const, render: (v: number) => v.toFixed(1) },
    {
      title: t('transportProcess.outToArrival'),
      dataIndex: 'outToArrivalMin',
      key: 'outToArrivalMin',
      width: 170,
      render: (v: number, r: Trip) => (
        <span>
          <Duration min={v} />
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {fmtTime(r.departAt)}
          </Typography.Text>
        </span>
      ),
    },
  ];
  return (
    <>
      <ListPage<Trip, Filters>
        queryKey="transportRecord"
        rowKey="id"
        fetch={async (q) => {
          const r = await recordPage(q);
          setTotals(r.totals);
          return r;
        }}
        initialFilters={{ range: initialRange(RANGE_DEFAULTS, true) } as Partial<Filters>}
        toFilters={toProcessFilters}
        exportRequest={(f) => recordExport(f)}
        filters={
          <>
            <ProcessFilters rangeLabel={t('transportRecord.closedAt')} states={['CLOSED', 'DIFF_FLAGGED']} />
            <Form.Item name="over" label={t('transportRecord.overFilter')}>
              <Select
                allowClear
                placeholder={t('common.all')}
                style={{ width: 110 }}
                options={[
                  { value: 'over', label: t('transportProcess.over') },
                  { value: 'within', label: t('transportProcess.within') },
                ]}
              />
            </Form.Item>
          </>
        }
        tableProps={{
          scroll: { x: 1750 },
          locale: { emptyText: t('transportRecord.empty') },
          onRow: (r) => ({ onDoubleClick: () => setOpen(r.id) }),
          summary: () => <TotalsRow totals={totals} cols={columns.length} />,
        }}
        columns={columns}
      />
      <Drawer open={open > 0} width="min(1280px, 96vw)" onClose={() => setOpen(0)} title={t('transportRecord.timeline')} destroyOnHidden>
        {open > 0 && <TripPanel waybillId={open} />}
      </Drawer>
    </>
  );
}
