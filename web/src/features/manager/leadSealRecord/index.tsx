import { Drawer, Form, Input, Select, Space, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  INCIDENT_KINDS,
  incidentExport,
  incidentPage,
  SEAL_STATES,
  sealExport,
  sealPage,
  type IncidentRow,
  type KindTotals,
  type SealFilters,
  type SealQuery,
  type SealRow,
  type SealTotals,
} from '../../../api/leadSeal';
import type { ExportRequest } from '../../../api/export';
import type { Page } from '../../../api/types';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { initialRange } from '../../../lib/presets';
import { TripPanel } from '../oilTransportProcess/TripTimeline';
import { KIND_COLOR, placeOf, STATE_COLOR, toSealFilters } from './filters';

const RANGE_DEFAULTS = { this_month: true } as const;
const initialFilters = () => ({ range: initialRange(RANGE_DEFAULTS, true) }) as Partial<SealFilters>;

/** The filters both tabs share; `extra` is the tab's own (state or kind). */
function Filters({ rangeLabel, extra }: { rangeLabel: string; extra: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="range" label={rangeLabel}>
        <TimeRangePicker showTime includeOptional />
      </Form.Item>
      <Form.Item name="carId" label={t('leadSeal.plate')}>
        <VehiclePicker placeholder={t('common.all')} />
      </Form.Item>
      <Form.Item name="groupId" label={t('leadSeal.group')}>
        <GroupSelect filter />
      </Form.Item>
      <Form.Item name="sealNo" label={t('leadSeal.sealNo')}>
        <Input allowClear style={{ width: 140 }} placeholder={t('common.all')} />
      </Form.Item>
      <Form.Item name="waybillNo" label={t('leadSeal.waybillNo')}>
        <Input allowClear style={{ width: 170 }} placeholder={t('common.all')} />
      </Form.Item>
      {extra}
    </>
  );
}

/** The counts of the filtered set (every page), by state or kind. */
type Count = [string, number, string?];

function Counts({ items, testId }: { items: Count[]; testId: string }) {
  return (
    <Space size={[4, 4]} wrap data-testid={testId}>
      {items.map(([label, n, color], i) =>
        i === 0 ? (
          <Typography.Text strong key={label}>
            {label}
          </Typography.Text>
        ) : (
          <Tag key={label} color={color}>
            {label} {n}
          </Tag>
        ),
      )}
    </Space>
  );
}

interface TabListProps<R, Tot> {
  queryKey: string;
  fetch: (q: SealQuery) => Promise<Page<R> & { totals: Tot }>;
  exportRequest: (f: SealFilters) => ExportRequest;
  testId: string;
  /** The totals as counts: the first is the whole set, the others tags. */
  counts: (totals: Tot) => Count[];
  rangeLabel: string;
  /** The tab's own choice filter (state or kind). */
  choice: { name: string; label: string; options: { value: number; label: string }[] };
  emptyText: string;
  columns: ColumnsType<R>;
}

/** One tab: the shared filters and the tab's choice, the counts of the filtered set above the table, export. */
function TabList<R extends { id: number }, Tot>(p: TabListProps<R, Tot>) {
  const { t } = useTranslation();
  const [totals, setTotals] = useState<Tot>();
  return (
    <ListPage<R, SealFilters>
      queryKey={p.queryKey}
      rowKey="id"
      fetch={async (q) => {
        const r = await p.fetch(q);
        setTotals(r.totals);
        return r;
      }}
      initialFilters={initialFilters()}
      toFilters={toSealFilters}
      exportCode="export"
      exportRequest={p.exportRequest}
      title={totals && <Counts testId={p.testId} items={p.counts(totals)} />}
      filters={
        <Filters
          rangeLabel={p.rangeLabel}
          extra={
            <Form.Item name={p.choice.name} label={p.choice.label}>
              <Select allowClear placeholder={t('common.all')} style={{ width: 150 }} options={p.choice.options} />
            </Form.Item>
          }
        />
      }
      tableProps={{ locale: { emptyText: p.emptyText } }}
      columns={p.columns}
    />
  );
}

/** The plate with the car's company under it. */
function plateColumn<R extends { plate: string; groupName: string }>(title: string, width: number) {
  return {
    title,
    dataIndex: 'plate',
    key: 'plate',
    width,
    sorter: true,
    render: (v: string, r: R) => (
      <span>
        {v}
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
          {r.groupName}
        </Typography.Text>
      </span>
    ),
  };
}

function WaybillLink({ no, id, open }: { no: string; id: number; open: (id: number) => void }) {
  return (
    <Typography.Link onClick={() => open(id)} data-testid="waybill-link">
      {no}
    </Typography.Link>
  );
}

function SealsTab({ open }: { open: (id: number) => void }) {
  const { t } = useTranslation();
  const columns = [
    { title: t('leadSeal.sealNo'), dataIndex: 'sealNo', key: 'sealNo', width: 130, fixed: 'left' as const, sorter: true },
    plateColumn<SealRow>(t('leadSeal.plate'), 130),
    { title: t('leadSeal.compartment'), dataIndex: 'compartment', key: 'compartment', width: 80, sorter: true, align: 'center' as const },
    {
      title: t('leadSeal.waybillNo'),
      dataIndex: 'waybillNo',
      key: 'waybillNo',
      width: 190,
      sorter: true,
      render: (v: string, r: SealRow) => <WaybillLink no={v} id={r.waybillId} open={open} />,
    },
    { title: t('leadSeal.depot'), dataIndex: 'depotName', key: 'depotName', width: 140, sorter: true },
    {
      title: t('leadSeal.applied'),
      dataIndex: 'appliedAt',
      key: 'appliedAt',
      width: 165,
      sorter: true,
      render: (v: string | null, r: SealRow) => (
        <span>
          {v ?? '—'}
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {r.appliedBy || t('leadSeal.bySystem')}
          </Typography.Text>
        </span>
      ),
    },
    {
      title: t('leadSeal.broken'),
      dataIndex: 'brokenAt',
      key: 'brokenAt',
      width: 190,
      sorter: true,
      render: (v: string | null, r: SealRow) =>
        v ? (
          <span>
            {v}
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {placeOf(r.brokenStationName, r.brokenLat, r.brokenLon)}
            </Typography.Text>
          </span>
        ) : (
          '—'
        ),
    },
    {
      title: t('leadSeal.state'),
      dataIndex: 'state',
      key: 'state',
      width: 150,
      sorter: true,
      render: (v: number, r: SealRow) => (
        <Space size={2} direction="vertical">
          <Tag color={STATE_COLOR[v]}>{t(`leadSeal.states.${v}`)}</Tag>
          {r.incidents > 0 && <Typography.Text type="danger">{t('leadSeal.incidentCount', { n: r.incidents })}</Typography.Text>}
        </Space>
      ),
    },
  ];
  return (
    <TabList<SealRow, SealTotals>
      queryKey="leadSealRecord"
      fetch={sealPage}
      exportRequest={sealExport}
      testId="seal-totals"
      counts={(x) => [
        [t('leadSeal.totals', { n: x.total }), x.total],
        ...SEAL_STATES.map((s): Count => [t(`leadSeal.states.${s}`), [0, x.applied, x.brokenAtDest, x.brokenAway][s], STATE_COLOR[s]]),
      ]}
      rangeLabel={t('leadSeal.appliedAt')}
      choice={{ name: 'state', label: t('leadSeal.state'), options: SEAL_STATES.map((s) => ({ value: s, label: t(`leadSeal.states.${s}`) })) }}
      emptyText={t('leadSeal.empty')}
      columns={columns}
    />
  );
}

function IncidentsTab({ open }: { open: (id: number) => void }) {
  const { t } = useTranslation();
  const columns = [
    {
      title: t('leadSeal.kind'),
      dataIndex: 'kind',
      key: 'kind',
      width: 130,
      fixed: 'left' as const,
      sorter: true,
      render: (v: number) => <Tag color={KIND_COLOR[v]}>{t(`leadSeal.kinds.${v}`)}</Tag>,
    },
    { title: t('leadSeal.time'), dataIndex: 't', key: 't', width: 165, sorter: true },
    plateColumn<IncidentRow>(t('leadSeal.plate'), 140),
    {
      title: t('leadSeal.waybillNo'),
      dataIndex: 'waybillNo',
      key: 'waybillNo',
      width: 190,
      sorter: true,
      render: (v: string, r: IncidentRow) => <WaybillLink no={v} id={r.waybillId} open={open} />,
    },
    {
      title: t('leadSeal.sealNo'),
      dataIndex: 'sealNo',
      key: 'sealNo',
      width: 160,
      sorter: true,
      render: (v: string, r: IncidentRow) => (v ? `${v}${r.compartment ? ` · ${t('leadSeal.compartmentN', { n: r.compartment })}` : ''}` : '—'),
    },
    { title: t('leadSeal.place'), key: 'place', width: 170, render: (_: unknown, r: IncidentRow) => placeOf(r.stationName, r.lat, r.lon) || '—' },
    { title: t('leadSeal.detail'), dataIndex: 'detailText', key: 'detail', width: 220, render: (v: string) => v || '—' },
  ];
  return (
    <TabList<IncidentRow, KindTotals>
      queryKey="leadSealIncidents"
      fetch={incidentPage}
      exportRequest={incidentExport}
      testId="incident-totals"
      counts={(x) => [
        [t('leadSeal.incidentTotals', { n: x.total }), x.total],
        ...INCIDENT_KINDS.map((k): Count => [t(`leadSeal.kinds.${k}`), [0, x.reused, x.brokenAway, x.noSeals, x.mismatch][k], KIND_COLOR[k]]),
      ]}
      rangeLabel={t('leadSeal.time')}
      choice={{ name: 'kind', label: t('leadSeal.kind'), options: INCIDENT_KINDS.map((k) => ({ value: k, label: t(`leadSeal.kinds.${k}`) })) }}
      emptyText={t('leadSeal.noIncidents')}
      columns={columns}
    />
  );
}

/** 铅封记录 (04-23): the lead seals the load records applied, how each ended, and the incidents (D53). */
export default function LeadSealRecordPage() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(0);
  return (
    <>
      <Tabs
        destroyOnHidden
        tabBarStyle={{ padding: '0 16px', marginBottom: 8, background: 'var(--ant-color-bg-container, #fff)' }}
        items={[
          { key: 'seals', label: t('leadSeal.tabSeals'), children: <SealsTab open={setOpen} /> },
          { key: 'incidents', label: t('leadSeal.tabIncidents'), children: <IncidentsTab open={setOpen} /> },
        ]}
      />
      <Drawer open={open > 0} width="min(1280px, 96vw)" onClose={() => setOpen(0)} title={t('leadSeal.timeline')} destroyOnHidden>
        {open > 0 && <TripPanel waybillId={open} />}
      </Drawer>
    </>
  );
}
