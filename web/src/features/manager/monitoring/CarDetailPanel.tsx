import { AimOutlined, CloseOutlined, LockOutlined, UnlockOutlined, WarningOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Empty, Result, Skeleton, Switch, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getAddress } from '../../../api/geocode';
import { carDetails, type CarDetails, type CompartmentDevice, type CompartmentState, type DeviceKind, type MapCar } from '../../../api/monitor';
import { useAppStore } from '../../../app/store';
import { bearingText } from '../../../lib/bearing';
import { isValidCoords } from '../../../lib/coords';
import { statusName, vehicleColor } from '../../../lib/vehicleColors';
import { RecentAlarms } from '../../police/common/RecentAlarms';
import { CarFunctionsBar } from './CarFunctionsBar';

const KINDS: DeviceKind[] = ['smallManholeCover', 'manholeCover', 'oilDischargeValve', 'bottomValve'];

/** One lock device of a compartment: open/closed, locked, fault ("—" when not installed). */
export function DeviceState({ d }: { d: CompartmentDevice | undefined }) {
  const { t } = useTranslation();
  if (!d || !d.installed) return <span className="tw-muted">{t('monitor.device.notInstalled')}</span>;
  return (
    <span className="tw-device" data-open={d.open} data-locked={d.locked} data-fault={d.fault}>
      <Tag color={d.open ? 'orange' : 'green'} bordered={false}>
        {d.open ? t('monitor.device.open') : t('monitor.device.closed')}
      </Tag>
      <Tooltip title={d.locked ? t('monitor.device.locked') : t('monitor.device.unlocked')}>
        {d.locked ? <LockOutlined className="tw-lock on" aria-label={t('monitor.device.locked')} /> : <UnlockOutlined className="tw-lock" aria-label={t('monitor.device.unlocked')} />}
      </Tooltip>
      {d.fault && (
        <Tag color="red" bordered={false} icon={<WarningOutlined />}>
          {t('monitor.device.fault')}
        </Tag>
      )}
    </span>
  );
}

function Section({ title, extra, children }: { title: string; extra?: ReactNode; children: ReactNode }) {
  return (
    <section className="tw-detail-section">
      <div className="tw-detail-section-head">
        <h3>{title}</h3>
        {extra && <span className="tw-muted">{extra}</span>}
      </div>
      {children}
    </section>
  );
}

/** A small table of a detail section, or what is missing when it has no rows. */
function SectionTable<T extends object>({ rows, rowKey, testId, empty, columns }: { rows: T[]; rowKey: keyof T & string; testId: string; empty: string; columns: ColumnsType<T> }) {
  if (rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return <Table<T> size="small" pagination={false} rowKey={rowKey} data-testid={testId} dataSource={rows} columns={columns} />;
}

/** The detail of a car (carDetails), with the address of its position. */
export function CarDetailView({ d, address, addressLoading, extra }: { d: CarDetails; address: string | undefined; addressLoading: boolean; extra?: ReactNode }) {
  const { t } = useTranslation();
  const located = isValidCoords(d.lng, d.lat);
  const bearing = bearingText(d.direction);
  const dash = '—';
  const compartmentColumn = (dataIndex: string) => ({ title: t('monitor.compartment'), dataIndex, width: 52, render: (n: number) => t('monitor.compartmentNo', { n }) });
  // A car that never reported has no speed or heading (the server sends 0 for both).
  const reported = d.time != null;
  return (
    <div className="tw-detail-body">
      <Descriptions size="small" column={1} colon={false} className="tw-detail-desc">
        <Descriptions.Item label={t('monitor.field.driver')}>
          <span data-testid="detail-driver">
            {d.driverName || dash}
            {d.driverPhone ? ` · ${d.driverPhone}` : ''}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('monitor.field.speed')}>
          <span data-testid="detail-speed">{reported ? t('monitor.kmh', { speed: d.speed }) : dash}</span>
          {reported && d.speedLimit > 0 && <span className="tw-muted"> · {t('monitor.speedLimit', { n: d.speedLimit })}</span>}
        </Descriptions.Item>
        <Descriptions.Item label={t('monitor.field.direction')}>
          <span data-testid="detail-bearing">
            {reported ? t(bearing.key, bearing.args) : dash}
            {reported && bearing.key !== 'bearing.raw' && <span className="tw-muted"> ({d.direction}°)</span>}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('monitor.field.position')}>
          {located ? (
            <span data-testid="detail-address">
              {addressLoading ? t('common.loading') : address || dash}
              <span className="tw-muted tw-coords">
                {Number(d.lng).toFixed(6)}, {Number(d.lat).toFixed(6)}
              </span>
            </span>
          ) : (
            <span className="tw-not-located" data-testid="detail-address">
              {t('common.notLocated')}
            </span>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('monitor.field.time')}>
          <span data-testid="detail-time">{d.time ?? t('monitor.neverReported')}</span>
          {d.received && d.received !== d.time && <span className="tw-muted"> · {t('monitor.received', { time: d.received })}</span>}
        </Descriptions.Item>
        <Descriptions.Item label={t('monitor.field.load')}>{d.loadText || dash}</Descriptions.Item>
        <Descriptions.Item label={t('monitor.field.seal')}>
          <span data-testid="detail-seal">{d.sealText ? <Tag color={d.seal === 2 ? 'red' : d.seal === 1 ? 'green' : 'default'}>{d.sealText}</Tag> : dash}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('monitor.field.group')}>{d.groupName || dash}</Descriptions.Item>
        <Descriptions.Item label={t('monitor.field.terminal')}>
          {d.terminalPhone || dash}
          {d.time && <span className="tw-muted"> · ACC {d.acc ? t('monitor.on') : t('monitor.off')}</span>}
        </Descriptions.Item>
        {d.mileage != null && <Descriptions.Item label={t('monitor.field.mileage')}>{t('monitor.km', { n: d.mileage })}</Descriptions.Item>}
      </Descriptions>

      {(d.alarms.length > 0 || d.abnormalReasons.length > 0) && (
        <Section title={t('monitor.alarms')}>
          <div className="tw-detail-tags" data-testid="detail-alarms">
            {d.abnormalReasons.map((r) => (
              <Tag key={`r-${r}`} color="red">
                {r}
              </Tag>
            ))}
            {d.alarms.map((a) => (
              <Tag key={a.bit} color="volcano">
                {a.name}
              </Tag>
            ))}
          </div>
        </Section>
      )}

      <Section title={t('monitor.compartments')} extra={d.tankTime ?? undefined}>
        <SectionTable
          rows={d.compartmentStates}
          rowKey="houseNumber"
          testId="detail-compartments"
          empty={t('monitor.noTankData')}
          columns={[
            compartmentColumn('houseNumber'),
            ...KINDS.map((kind) => ({
              title: t(`monitor.kind.${kind}`),
              key: kind,
              render: (_: unknown, row: CompartmentState) => <DeviceState d={row.devices.find((x) => x.kind === kind)} />,
            })),
          ]}
        />
      </Section>

      <Section title={t('monitor.levels')} extra={d.levelTime ?? undefined}>
        <SectionTable
          rows={d.levels}
          rowKey="compartment"
          testId="detail-levels"
          empty={t('monitor.noLevels')}
          columns={[
            compartmentColumn('compartment'),
            { title: t('monitor.levelMm'), dataIndex: 'levelMm', align: 'right' },
            { title: t('monitor.volumeL'), dataIndex: 'volumeL', align: 'right' },
            { title: t('monitor.temperature'), dataIndex: 'temperature', align: 'right', render: (v: number) => v.toFixed(1) },
          ]}
        />
      </Section>
      {extra}
    </div>
  );
}

export interface CarDetailPanelProps {
  carId: number;
  /** The car's newest live state: a new report (time) refreshes the detail. */
  live?: MapCar;
  follow: boolean;
  onFollow: (v: boolean) => void;
  onLocate: () => void;
  onClose: () => void;
}

/** Side card of the selected car: carDetails plus its address, refreshed with each new report. */
export function CarDetailPanel({ carId, live, follow, onFollow, onLocate, onClose }: CarDetailPanelProps) {
  const { t } = useTranslation();
  const lang = useAppStore((s) => s.lang);
  const q = useQuery({
    queryKey: ['monitor', 'carDetails', carId, lang],
    queryFn: () => carDetails(carId),
    placeholderData: (prev, prevQuery) => (prevQuery?.queryKey[2] === carId ? prev : undefined),
    staleTime: 5000,
  });
  // Each new report refreshes the card, but never restarts a refresh under way: with the report's time
  // in the query key, a car reporting faster than the server answered left the card loading for ever.
  const { refetch } = q;
  const liveTime = live?.time ?? null;
  useEffect(() => {
    if (liveTime !== null) void refetch({ cancelRefetch: false });
  }, [liveTime, refetch]);
  const d = q.data;
  const located = !!d && isValidCoords(d.lng, d.lat);
  const addr = useQuery({
    queryKey: ['monitor', 'address', located ? Number(d!.lng).toFixed(4) : '', located ? Number(d!.lat).toFixed(4) : '', lang],
    queryFn: () => getAddress(d!.lng, d!.lat),
    enabled: located,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
  const plate = d?.plate ?? live?.plate ?? '';
  const status = statusName(d ?? live);

  return (
    <aside className="tw-detail" data-testid="car-detail" aria-label={t('monitor.detail')}>
      <header className="tw-detail-head">
        <span className="tw-dot lg" style={{ background: vehicleColor(d ?? live) }} />
        <div className="tw-detail-title">
          <strong data-testid="detail-plate">{plate || '…'}</strong>
          <span className="tw-detail-status">
            {d?.codeText || t(`monitor.status.${status}`)}
            {d?.abnormal && (
              <Tag color="red" bordered={false} style={{ marginInlineStart: 6 }}>
                {t('home.count.3')}
              </Tag>
            )}
          </span>
        </div>
        <Tooltip title={t('monitor.locate')}>
          <Button type="text" size="small" icon={<AimOutlined />} onClick={onLocate} disabled={!located} aria-label={t('monitor.locate')} data-testid="detail-locate" />
        </Tooltip>
        <Button type="text" size="small" icon={<CloseOutlined />} onClick={onClose} aria-label={t('common.close')} data-testid="detail-close" />
      </header>
      <div className="tw-strip tw-detail-follow">
        <Switch size="small" checked={follow} onChange={onFollow} disabled={!located} data-testid="detail-follow" />
        <span>{t('monitor.follow')}</span>
      </div>
      <CarFunctionsBar carId={carId} plate={plate} />
      {q.isPending ? (
        <Skeleton active paragraph={{ rows: 10 }} style={{ padding: 12 }} />
      ) : q.isError && !d ? (
        <Result
          status="warning"
          title={t('monitor.detailFailed')}
          subTitle={q.error instanceof Error ? q.error.message : undefined}
          extra={
            <Button size="small" onClick={() => void q.refetch()}>
              {t('common.refresh')}
            </Button>
          }
        />
      ) : d ? (
        <CarDetailView
          d={d}
          address={addr.data}
          addressLoading={addr.isFetching && !addr.data}
          extra={
            <Section title={t('alarm.recent')}>
              <RecentAlarms carId={carId} version={live?.time} />
            </Section>
          }
        />
      ) : null}
    </aside>
  );
}
