import { ClockCircleOutlined, WarningOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Descriptions, Empty, Row, Space, Spin, Table, Tag, Timeline, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { processDetail, type StepView, type Trip, type TripDetail, type WaybillState } from '../../../api/transportProcess';
import { fmtL, fmtTime, hm, timelineItems, type TimelineItem } from './timeline';

/** Tag colours of the states. */
export const STATE_COLOR: Record<WaybillState, string> = {
  PLANNED: 'default',
  DISPATCHED: 'blue',
  LOADING: 'cyan',
  LOADED: 'cyan',
  SEALED: 'geekblue',
  IN_TRANSIT: 'processing',
  ARRIVED: 'purple',
  UNSEALED: 'purple',
  UNLOADING: 'purple',
  RECEIVED: 'lime',
  CLOSED: 'success',
  DIFF_FLAGGED: 'error',
  CANCELLED: 'default',
};

export function StateTag({ state }: { state: WaybillState }) {
  const { t } = useTranslation();
  return <Tag color={STATE_COLOR[state]}>{t(`waybillCommon.state.${state}`)}</Tag>;
}

/** The marks of a trip shown next to its state: late, flagged, left unsealed. */
export function TripMarks({ trip }: { trip: Pick<Trip, 'late' | 'flagged' | 'leftUnsealed'> }) {
  const { t } = useTranslation();
  return (
    <>
      {trip.late && <Tag color="orange">{t('transportProcess.late')}</Tag>}
      {trip.flagged && <Tag color="red">{t('transportProcess.flagged')}</Tag>}
      {trip.leftUnsealed && <Tag color="red">{t('waybillCommon.diff.4')}</Tag>}
    </>
  );
}

/** Duration text: "1 小时 5 分" / "—". */
export function Duration({ min }: { min: number }) {
  const { t } = useTranslation();
  const v = hm(min);
  return <>{v ? t('transportProcess.duration', v) : '—'}</>;
}

/** Who or what caused a step: the user's nickname, else the cause's name. */
function Who({ s }: { s: StepView }) {
  const { t } = useTranslation();
  if (s.cause === 3 || (s.cause === 4 && s.userName)) return <Tag color="blue">{s.userName || t('waybillCommon.cause.3')}</Tag>;
  return <Tag>{t(`waybillCommon.cause.${s.cause}`)}</Tag>;
}

function Place({ s }: { s: StepView }) {
  if (s.stationName) return <span>{s.stationName}</span>;
  if (s.address) return <span>{s.address}</span>;
  if (s.lat || s.lon) return <span>{`${s.lon.toFixed(5)}, ${s.lat.toFixed(5)}`}</span>;
  return null;
}

function StepBody({ item }: { item: Extract<TimelineItem, { kind: 'step' | 'mark' }> }) {
  const { t } = useTranslation();
  const s = item.step;
  const late = s.recordedAt - s.t > 60_000;
  const head =
    item.kind === 'mark' ? (
      <Typography.Text type="danger" strong>
        <WarningOutlined /> {t(`waybillCommon.ev.${s.evidence}`)}
      </Typography.Text>
    ) : (
      <Typography.Text strong type={item.warn ? 'danger' : undefined}>
        {t(`waybillCommon.state.${s.to}`)}
      </Typography.Text>
    );
  return (
    <div data-testid={`step-${s.id}`}>
      <Space size={8} wrap>
        {head}
        <Typography.Text type="secondary">{fmtTime(s.t)}</Typography.Text>
      </Space>
      <div style={{ marginTop: 2 }}>
        <Space size={4} wrap>
          <Who s={s} />
          {s.evidence === 0 ? <Tag color="orange">{t('waybillCommon.ev.0')}</Tag> : item.kind === 'step' && <Tag>{t(`waybillCommon.ev.${s.evidence}`)}</Tag>}
          {item.kind === 'step' && item.warn && s.to === 'IN_TRANSIT' && <Tag color="red">{t('waybillCommon.diff.4')}</Tag>}
          <Place s={s} />
          {s.compartment > 0 && <Tag>{t('transportProcess.compartmentNo', { n: s.compartment })}</Tag>}
          {s.destSeq > 0 && <Tag>{t('transportProcess.destNo', { n: s.destSeq })}</Tag>}
          {s.volumeL !== 0 && <span>{t('transportProcess.volume', { v: fmtL(s.volumeL) })}</span>}
        </Space>
      </div>
      {s.reason && (
        <Typography.Text type={item.kind === 'mark' || s.evidence === 0 ? 'warning' : 'secondary'} style={{ display: 'block' }}>
          {t('transportProcess.reason', { r: s.reason })}
        </Typography.Text>
      )}
      {late && (
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
          {t('transportProcess.recordedAt', { t: fmtTime(s.recordedAt) })}
        </Typography.Text>
      )}
    </div>
  );
}

/** The vertical timeline of a trip's steps, with the states not yet reached greyed. */
export function StepsTimeline({ detail }: { detail: TripDetail }) {
  const { t } = useTranslation();
  const items = timelineItems(detail).map((it, i) => {
    let children: ReactNode;
    let color = 'blue';
    let dot: ReactNode;
    switch (it.kind) {
      case 'created':
        children = (
          <Space size={8}>
            <Typography.Text strong>{t('waybillCommon.state.PLANNED')}</Typography.Text>
            <Typography.Text type="secondary">{fmtTime(it.t)}</Typography.Text>
            <Tag>{t('transportProcess.created')}</Tag>
          </Space>
        );
        color = 'green';
        break;
      case 'step':
        children = <StepBody item={it} />;
        color = it.warn ? 'red' : 'green';
        break;
      case 'mark':
        children = <StepBody item={it} />;
        color = 'red';
        dot = <WarningOutlined style={{ color: '#cf1322' }} />;
        break;
      case 'planned':
        children = (
          <Space size={8} data-testid="planned-step">
            <Typography.Text type="secondary">{t(`waybillCommon.state.${it.state}`)}</Typography.Text>
            <Typography.Text type="secondary">{it.t > 0 ? t('transportProcess.plannedAt', { t: fmtTime(it.t) }) : t('transportProcess.notYet')}</Typography.Text>
          </Space>
        );
        color = 'gray';
        dot = <ClockCircleOutlined style={{ color: '#bfbfbf' }} />;
        break;
    }
    return { key: `${it.kind}-${i}`, color, dot, children };
  });
  return <Timeline items={items} />;
}

/** Figures of the loss against its allowance. */
function LossCard({ w }: { w: Trip }) {
  const { t } = useTranslation();
  const known = w.state === 'CLOSED' || w.state === 'DIFF_FLAGGED';
  return (
    <Descriptions size="small" column={2} bordered title={t('transportProcess.lossTitle')} styles={{ label: { width: 130, whiteSpace: 'nowrap' } }}>
      <Descriptions.Item label={t('transportProcess.shippedV20')}>{w.shippedV20 > 0 ? fmtL(w.shippedV20) : '—'}</Descriptions.Item>
      <Descriptions.Item label={t('transportProcess.shippedMassT')}>{w.shippedMassT > 0 ? w.shippedMassT.toFixed(3) : '—'}</Descriptions.Item>
      <Descriptions.Item label={t('transportProcess.receivedV20')}>
        {w.receivedSource > 0 ? (
          <Space size={4}>
            {fmtL(w.receivedV20)}
            <Tag>{t(`waybillCommon.received.${w.receivedSource}`)}</Tag>
          </Space>
        ) : (
          '—'
        )}
      </Descriptions.Item>
      <Descriptions.Item label={t('transportProcess.loadedKm')}>{w.loadedKm > 0 ? w.loadedKm.toFixed(1) : '—'}</Descriptions.Item>
      <Descriptions.Item label={t('transportProcess.lossL')}>{known ? fmtL(w.lossL) : '—'}</Descriptions.Item>
      <Descriptions.Item label={t('transportProcess.lossRate')}>
        {known ? (
          <Space size={4}>
            <Typography.Text type={w.over ? 'danger' : undefined}>{`${w.lossRatePct.toFixed(4)} %`}</Typography.Text>
            <Typography.Text type="secondary">{t('transportProcess.allowance', { v: w.allowedPct.toFixed(2) })}</Typography.Text>
            <Tag color={w.over ? 'red' : 'green'}>{t(w.over ? 'transportProcess.over' : 'transportProcess.within')}</Tag>
          </Space>
        ) : (
          t('transportProcess.lossPending')
        )}
      </Descriptions.Item>
      <Descriptions.Item label={t('transportProcess.outToArrival')}>
        <Duration min={w.outToArrivalMin} />
      </Descriptions.Item>
      <Descriptions.Item label={t('transportProcess.tonKm')}>{w.tonKm > 0 ? w.tonKm.toFixed(1) : '—'}</Descriptions.Item>
    </Descriptions>
  );
}

/** The whole of one trip: head, timeline, compartments and load record, destinations, loss, differences. */
export function TripView({ detail, actions }: { detail: TripDetail; actions?: ReactNode }) {
  const { t } = useTranslation();
  const w = detail.waybill;
  const items = new Map((detail.load?.items ?? []).map((i) => [i.compartment, i]));
  const destName = (seq: number) => detail.destinations.find((d) => d.seq === seq)?.stationName ?? '—';
  return (
    <div data-testid="trip-view">
      <Card
        size="small"
        title={
          <Space wrap>
            <Typography.Text strong>{w.no}</Typography.Text>
            <StateTag state={w.state} />
            <span>{w.plate}</span>
            <TripMarks trip={w} />
          </Space>
        }
        extra={actions}
        style={{ marginBottom: 12 }}
      >
        <Descriptions size="small" column={{ xs: 1, xl: 2, xxl: 3 }}>
          <Descriptions.Item label={t('transportProcess.depot')}>{w.depotName}</Descriptions.Item>
          <Descriptions.Item label={t('transportProcess.destinations')}>{detail.destinations.map((d) => d.stationName).join(' → ') || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('transportProcess.carrier')}>{w.groupName}</Descriptions.Item>
          <Descriptions.Item label={t('transportProcess.sales')}>{w.salesGroupName || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('transportProcess.customer')}>{w.customerName || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('transportProcess.driver')}>{[w.driverName, w.driverPhone].filter(Boolean).join(' ') || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('transportProcess.plannedLoadAt')}>{fmtTime(w.plannedLoadAt)}</Descriptions.Item>
          <Descriptions.Item label={t('transportProcess.plannedArriveAt')}>{fmtTime(w.plannedArriveAt)}</Descriptions.Item>
          <Descriptions.Item label={t('transportProcess.escort')}>{[w.escortName, w.escortPhone].filter(Boolean).join(' ') || '—'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={12}>
        <Col xs={24} xxl={10}>
          <Card size="small" title={t('transportProcess.timeline')} style={{ marginBottom: 12 }}>
            <StepsTimeline detail={detail} />
          </Card>
        </Col>
        <Col xs={24} xxl={14}>
          <Card size="small" style={{ marginBottom: 12 }}>
            <LossCard w={w} />
          </Card>
          <Card
            size="small"
            title={
              <Space>
                {t('transportProcess.compartments')}
                {detail.load ? (
                  <Typography.Text type="secondary">
                    {t('transportProcess.ticket', { no: detail.load.ticketNo || '—', t: fmtTime(detail.load.loadedAt), source: t(`waybillCommon.load.${detail.load.source}`) })}
                  </Typography.Text>
                ) : (
                  <Typography.Text type="secondary">{t('transportProcess.noLoad')}</Typography.Text>
                )}
              </Space>
            }
            style={{ marginBottom: 12 }}
          >
            <Table
              size="small"
              rowKey="no"
              pagination={false}
              scroll={{ x: 900 }}
              dataSource={detail.compartments}
              columns={[
                { title: t('transportProcess.compartment'), dataIndex: 'no', width: 60 },
                { title: t('transportProcess.product'), dataIndex: 'productName', width: 100 },
                { title: t('transportProcess.plannedL'), dataIndex: 'plannedL', width: 90, render: (v: number) => fmtL(v) },
                { title: t('transportProcess.destination'), dataIndex: 'destSeq', width: 110, render: (v: number) => destName(v) },
                { title: 'Vt (L)', key: 'vt', width: 90, render: (_, c) => (items.get(c.no) ? fmtL(items.get(c.no)!.vtL) : '—') },
                { title: t('transportProcess.tempC'), key: 'temp', width: 70, render: (_, c) => items.get(c.no)?.tempC.toFixed(1) ?? '—' },
                { title: t('transportProcess.density20'), key: 'rho', width: 80, render: (_, c) => items.get(c.no)?.density20.toFixed(1) ?? '—' },
                { title: 'VCF20', key: 'vcf', width: 70, render: (_, c) => items.get(c.no)?.vcf20.toFixed(5) ?? '—' },
                { title: 'V20 (L)', key: 'v20', width: 90, render: (_, c) => (items.get(c.no) ? fmtL(items.get(c.no)!.v20L) : '—') },
                { title: t('transportProcess.massT'), key: 'mass', width: 70, render: (_, c) => items.get(c.no)?.massT.toFixed(3) ?? '—' },
                { title: t('transportProcess.sealNo'), key: 'seal', width: 100, render: (_, c) => items.get(c.no)?.sealNo || '—' },
              ]}
            />
          </Card>
          <Card size="small" title={t('transportProcess.destinations')} style={{ marginBottom: 12 }}>
            <Table
              size="small"
              rowKey="seq"
              pagination={false}
              dataSource={detail.destinations}
              columns={[
                { title: '#', dataIndex: 'seq', width: 40 },
                { title: t('transportProcess.station'), dataIndex: 'stationName' },
                { title: t('transportProcess.arriveAt'), dataIndex: 'arriveAt', render: (v: number) => fmtTime(v) },
                { title: t('transportProcess.unloadAt'), key: 'unload', render: (_, d) => (d.unloadStartAt ? `${fmtTime(d.unloadStartAt)}${d.unloadEndAt ? ' ~ ' + fmtTime(d.unloadEndAt).slice(11) : ''}` : '—') },
                {
                  title: t('transportProcess.receivedV20'),
                  key: 'rcv',
                  render: (_, d) =>
                    d.receivedSource > 0 ? (
                      <Space size={4}>
                        {fmtL(d.receivedV20)}
                        <Tag>{t(`waybillCommon.received.${d.receivedSource}`)}</Tag>
                      </Space>
                    ) : (
                      '—'
                    ),
                },
              ]}
            />
          </Card>
          {detail.diffs.length > 0 && (
            <Card size="small" title={t('transportProcess.diffs')}>
              {detail.diffs.map((d) => (
                <Alert
                  key={d.id}
                  type={d.status === 0 ? 'error' : 'info'}
                  showIcon
                  style={{ marginBottom: 6 }}
                  message={
                    <Space wrap>
                      {t(`waybillCommon.diff.${d.kind}`)}
                      <span>{fmtTime(d.t)}</span>
                      {d.kind === 1 && <span>{t('transportProcess.diffLoss', { l: fmtL(d.lossL), r: d.lossRatePct.toFixed(4), a: d.allowedPct.toFixed(2) })}</span>}
                      <Tag>{t(d.status === 0 ? 'transportProcess.diffOpen' : 'transportProcess.diffReviewed')}</Tag>
                      {d.reviewReason && <span>{d.reviewReason}</span>}
                    </Space>
                  }
                />
              ))}
            </Card>
          )}
        </Col>
      </Row>
    </div>
  );
}

/** Loads one trip and shows it (oilTransportProcess, the record's drawer; historyWaybill may reuse it). */
export function TripPanel({ waybillId, actions }: { waybillId: number; actions?: (d: TripDetail) => ReactNode }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['transportProcessDetail', waybillId], queryFn: () => processDetail(waybillId), enabled: waybillId > 0 });
  if (!waybillId) return <Empty description={t('transportProcess.pick')} />;
  if (q.isLoading) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (q.isError || !q.data) return <Alert type="warning" showIcon message={t('transportProcess.loadFailed')} />;
  return <TripView detail={q.data} actions={actions?.(q.data)} />;
}
