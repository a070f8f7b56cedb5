import { Form, InputNumber, Select, Space, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  carEventExport,
  carEventPage,
  EVENT_KINDS,
  valveStateExport,
  valveStatePage,
  type CarEvent,
  type CarEventQuery,
  type EventKind,
  type ValveChange,
  type ValveQuery,
} from '../../../api/carEvents';
import type { Page } from '../../../api/types';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { HISTORY_DEFAULTS, historyInitial, keyed, toHistoryFilters, type Keyed } from '../history/filters';
import { AddressCell } from '../history/HistoryFields';
import { RaiseFaultButton } from '../../faultRecord/RaiseFault';

/** The sensor-fault kinds a fault may be raised from (internal/aftersales.SensorFaultKinds). */
const SENSOR_FAULTS: EventKind[] = ['sensorStuck', 'sensorJump', 'sensorMissing'];

/** Tag colours of the event kinds: product in (green), out at a station (blue), suspicious (red),
 * sensor faults (gold), openings (purple). */
export const KIND_COLOR: Record<EventKind, string> = {
  load: 'green',
  unload: 'blue',
  dropMoving: 'volcano',
  dropOutside: 'volcano',
  theft: 'red',
  sensorStuck: 'gold',
  sensorJump: 'gold',
  sensorMissing: 'gold',
  coverOpen: 'purple',
  valveOpen: 'purple',
};

/** The link to the compartment trend at an event's start (the hydtrend page reads carId and at). */
export function trendHref(e: Pick<CarEvent, 'carId' | 'startMs'>): string {
  return `/manager/hydtrend?carId=${e.carId}&at=${e.startMs}`;
}

/** Litres with one decimal and a sign for changes. */
export function litres(v: number, signed = false): string {
  const s = v.toFixed(1);
  return signed && v > 0 ? `+${s}` : s;
}

type EventFilters = Omit<CarEventQuery, 'pageNum' | 'pageSize'>;
type ValveFilters = Omit<ValveQuery, 'pageNum' | 'pageSize'>;

function Place({ stationName, lng, lat }: { stationName: string; lng: number; lat: number }) {
  const { t } = useTranslation();
  if (stationName) return <Tag color="blue">{stationName}</Tag>;
  return (
    <Space size={4}>
      <Tag>{t('carEvents.outside')}</Tag>
      <AddressCell lng={lng} lat={lat} />
    </Space>
  );
}

function CompartmentFilter() {
  const { t } = useTranslation();
  return (
    <Form.Item name="compartment" label={t('carEvents.compartment')}>
      <InputNumber min={1} max={8} precision={0} placeholder={t('common.all')} style={{ width: 90 }} />
    </Form.Item>
  );
}

function EventsTab() {
  const { t } = useTranslation();
  const volume = (key: 'before' | 'after', v20: 'beforeV20' | 'afterV20') => (_: unknown, e: CarEvent) =>
    e.kind === 'coverOpen' || e.kind === 'valveOpen' || e.kind === 'sensorMissing' ? (
      <Typography.Text type="secondary">—</Typography.Text>
    ) : (
      <span>
        {litres(e[key])}
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
          V20 {litres(e[v20])}
        </Typography.Text>
      </span>
    );
  return (
    <ListPage<CarEvent, EventFilters>
      queryKey="carEventRecord"
      rowKey="id"
      fetch={(q) => carEventPage(q as CarEventQuery)}
      initialFilters={historyInitial() as Partial<EventFilters>}
      toFilters={(v) => toHistoryFilters<EventFilters>(v)}
      exportAlways
      exportRequest={carEventExport}
      filters={
        <>
          <Form.Item name="groupId" label={t('carEvents.group')}>
            <GroupSelect filter />
          </Form.Item>
          <Form.Item name="carId" label={t('history.vehicle')}>
            <VehiclePicker placeholder={t('common.all')} />
          </Form.Item>
          <Form.Item name="kind" label={t('carEvents.kind')}>
            <Select
              allowClear
              placeholder={t('common.all')}
              style={{ width: 170 }}
              options={EVENT_KINDS.map((k) => ({ value: k, label: t(`carEvents.kinds.${k}`) }))}
            />
          </Form.Item>
          <CompartmentFilter />
          <Form.Item name="range" label={t('history.range')}>
            <TimeRangePicker showTime defaults={HISTORY_DEFAULTS} />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1500 }, locale: { emptyText: t('carEvents.empty') } }}
      columns={[
        { title: t('history.plate'), dataIndex: 'plate', key: 'plate', width: 110, sorter: true, fixed: 'left' },
        {
          title: t('carEvents.compartment'),
          dataIndex: 'compartment',
          key: 'compartment',
          width: 80,
          sorter: true,
          render: (c: number) => (c === 0 ? t('carEvents.wholeCar') : t('carEvents.compartmentNo', { n: c })),
        },
        {
          title: t('carEvents.kind'),
          dataIndex: 'kind',
          key: 'kind',
          width: 150,
          sorter: true,
          render: (k: EventKind, e) => (
            <Space size={2} direction="vertical">
              <Tag color={KIND_COLOR[k]} data-testid="event-kind">
                {t(`carEvents.kinds.${k}`)}
              </Tag>
              {e.detail && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {e.detail}
                </Typography.Text>
              )}
            </Space>
          ),
        },
        { title: t('carEvents.place'), key: 'place', width: 230, ellipsis: true, render: (_, e) => <Place {...e} /> },
        { title: t('carEvents.before'), key: 'before', width: 110, sorter: true, render: volume('before', 'beforeV20') },
        { title: t('carEvents.after'), key: 'after', width: 110, sorter: true, render: volume('after', 'afterV20') },
        {
          title: t('carEvents.change'),
          key: 'change',
          width: 110,
          sorter: true,
          render: (_, e) =>
            e.kind === 'coverOpen' || e.kind === 'valveOpen' || e.kind === 'sensorMissing' ? (
              <Typography.Text type="secondary">—</Typography.Text>
            ) : (
              <span>
                <Typography.Text type={e.change < 0 ? 'danger' : e.change > 0 ? 'success' : undefined}>{litres(e.change, true)}</Typography.Text>
                <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                  V20 {litres(e.changeV20, true)}
                </Typography.Text>
              </span>
            ),
        },
        { title: t('carEvents.start'), dataIndex: 'start', key: 'start', width: 170, sorter: true, defaultSortOrder: undefined },
        {
          title: t('carEvents.end'),
          dataIndex: 'end',
          key: 'end',
          width: 170,
          sorter: true,
          render: (v: string | null, e) =>
            v ?? (e.kind === 'coverOpen' || e.kind === 'valveOpen' || e.kind === 'sensorStuck' || e.kind === 'sensorMissing' ? <Tag color="orange">{t('carEvents.ongoing')}</Tag> : '—'),
        },
        { title: t('carEvents.group'), dataIndex: 'groupName', key: 'groupName', width: 120, ellipsis: true },
        {
          title: t('carEvents.trend'),
          key: 'trend',
          width: 130,
          fixed: 'right',
          render: (_, e) => (
            <Space size={0}>
              <Link to={trendHref(e)}>{t('carEvents.trendLink')}</Link>
              {SENSOR_FAULTS.includes(e.kind) && (
                <RaiseFaultButton
                  source={() => ({
                    carId: e.carId,
                    plate: e.plate,
                    kind: 'tankEvent',
                    sourceId: e.id,
                    faultType: 'probe',
                    device: e.compartment ? `${t('faults.compartment', { n: e.compartment })} ${e.deviceName}` : e.deviceName,
                    symptom: t('faults.sensorSymptom', { kind: e.kindName, start: e.start, where: e.stationName || t('common.notLocated') }),
                  })}
                />
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}

type KeyedValve = Keyed<ValveChange>;

async function fetchValves(q: ValveQuery): Promise<Page<KeyedValve>> {
  return keyed(await valveStatePage(q), (v) => `${v.carId}/${v.time}/${v.compartment}/${v.deviceKind}`);
}

function ValvesTab() {
  const { t } = useTranslation();
  return (
    <ListPage<KeyedValve, ValveFilters>
      queryKey="AllDataValveStates"
      rowKey="_key"
      fetch={(q) => fetchValves(q as ValveQuery)}
      initialFilters={historyInitial() as Partial<ValveFilters>}
      toFilters={(v) => toHistoryFilters<ValveFilters>(v)}
      exportAlways
      exportRequest={valveStateExport}
      filters={
        <>
          <Form.Item name="groupId" label={t('carEvents.group')}>
            <GroupSelect filter />
          </Form.Item>
          <Form.Item name="carId" label={t('history.vehicle')}>
            <VehiclePicker placeholder={t('common.all')} />
          </Form.Item>
          <Form.Item name="deviceKind" label={t('carEvents.device')}>
            <Select
              allowClear
              placeholder={t('common.all')}
              style={{ width: 140 }}
              options={[0, 1, 2, 3].map((k) => ({ value: k, label: t(`carEvents.devices.${k}`) }))}
            />
          </Form.Item>
          <CompartmentFilter />
          <Form.Item name="range" label={t('history.range')}>
            <TimeRangePicker showTime defaults={HISTORY_DEFAULTS} />
          </Form.Item>
        </>
      }
      tableProps={{ scroll: { x: 1200 }, locale: { emptyText: t('carEvents.valvesEmpty') } }}
      columns={[
        { title: t('history.plate'), dataIndex: 'plate', key: 'plate', width: 120, sorter: true },
        { title: t('carEvents.group'), dataIndex: 'groupName', key: 'groupName', width: 120, ellipsis: true },
        { title: t('carEvents.time'), dataIndex: 'time', key: 'time', width: 170, sorter: true },
        {
          title: t('carEvents.compartment'),
          dataIndex: 'compartment',
          key: 'compartment',
          width: 80,
          sorter: true,
          render: (c: number) => t('carEvents.compartmentNo', { n: c }),
        },
        {
          title: t('carEvents.device'),
          dataIndex: 'deviceKind',
          key: 'deviceKind',
          width: 170,
          sorter: true,
          render: (k: number) => t(`carEvents.devices.${k}`),
        },
        {
          title: t('carEvents.change'),
          key: 'states',
          width: 240,
          render: (_, v) => (
            <span data-testid="valve-change">
              <Typography.Text type="secondary">{v.prevText}</Typography.Text> →{' '}
              <Tag color={v.state & 2 ? 'red' : v.state & 4 ? 'green' : undefined}>{v.stateText}</Tag>
            </span>
          ),
        },
        { title: t('carEvents.place'), key: 'place', width: 280, ellipsis: true, render: (_, v) => <Place {...v} /> },
      ]}
    />
  );
}

/** 车辆事件记录: the tanker compartments' events and every cover and valve change (D36). */
export default function CarEventRecordPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      destroyOnHidden
      tabBarStyle={{ paddingLeft: 16, marginBottom: 0 }}
      items={[
        { key: 'events', label: t('carEvents.tabEvents'), children: <EventsTab /> },
        { key: 'valves', label: t('carEvents.tabValves'), children: <ValvesTab /> },
      ]}
    />
  );
}
