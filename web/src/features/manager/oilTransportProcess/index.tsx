import { EditOutlined, ExperimentOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { processPage, type ProcessQuery, type Trip, type TripDetail } from '../../../api/transportProcess';
import { AuthButton } from '../../../components/AuthButton';
import { ListPage } from '../../../components/ListPage';
import { CorrectDialog, ReceiveDialog } from './dialogs';
import { ProcessFilters, toProcessFilters } from './filters';
import { fmtTime } from './timeline';
import { StateTag, TripMarks, TripPanel } from './TripTimeline';

type Filters = Omit<ProcessQuery, 'pageNum' | 'pageSize'>;

/** The buttons of a trip: correct (04-15-01) and enter the received volume (04-15-02). */
function Actions({ detail }: { detail: TripDetail }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<'correct' | 'receive' | null>(null);
  const s = detail.waybill.state;
  const canReceive = s === 'ARRIVED' || s === 'UNSEALED' || s === 'UNLOADING';
  return (
    <Space>
      <AuthButton code="correct">
        <Button size="small" icon={<EditOutlined />} onClick={() => setOpen('correct')}>
          {t('transportProcess.correct')}
        </Button>
      </AuthButton>
      <AuthButton code="receive">
        <Button size="small" type="primary" icon={<ExperimentOutlined />} disabled={!canReceive} title={canReceive ? undefined : t('transportProcess.receiveWhen')} onClick={() => setOpen('receive')}>
          {t('transportProcess.receive')}
        </Button>
      </AuthButton>
      {open === 'correct' && <CorrectDialog detail={detail} onClose={() => setOpen(null)} />}
      {open === 'receive' && <ReceiveDialog detail={detail} onClose={() => setOpen(null)} />}
    </Space>
  );
}

/** 油品运输过程 (04-15): the trips, and the selected one's timeline from PLANNED to CLOSED (D46). */
export default function OilTransportProcessPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const selected = Number(params.get('waybillId') ?? 0) || 0;
  const select = (id: number) => setParams((p) => {
    const n = new URLSearchParams(p);
    n.set('waybillId', String(id));
    return n;
  });
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'minmax(560px, 620px) minmax(0, 1fr)', gap: 4 }}>
      <div style={{ minWidth: 0 }}>
        <ListPage<Trip, Filters>
          queryKey="oilTransportProcess"
          rowKey="id"
          fetch={(q) => processPage(q)}
          toFilters={toProcessFilters}
          filters={<ProcessFilters rangeLabel={t('transportProcess.tripTime')} showTime={false} />}
          tableProps={{
            size: 'small',
            scroll: { x: 540 },
            locale: { emptyText: t('transportProcess.empty') },
            onRow: (r) => ({ onClick: () => select(r.id), style: { cursor: 'pointer', background: r.id === selected ? '#e6f4ff' : undefined } }),
          }}
          columns={[
            {
              title: t('transportProcess.no'),
              dataIndex: 'no',
              key: 'no',
              width: 200,
              sorter: true,
              render: (v: string, r) => (
                <span>
                  <Typography.Link onClick={() => select(r.id)}>{v}</Typography.Link>
                  <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                    {r.plate}
                  </Typography.Text>
                </span>
              ),
            },
            {
              title: t('transportProcess.state'),
              dataIndex: 'state',
              key: 'state',
              width: 120,
              sorter: true,
              render: (_, r) => (
                <Space size={2} direction="vertical">
                  <StateTag state={r.state} />
                  <span>
                    <TripMarks trip={r} />
                  </span>
                </Space>
              ),
            },
            {
              title: t('transportProcess.route'),
              key: 'route',
              width: 150,
              render: (_, r) => (
                <span style={{ fontSize: 12 }}>
                  {r.depotName} → {r.destinations.map((d) => d.stationName).join('、') || '—'}
                </span>
              ),
            },
            {
              title: t('transportProcess.plannedLoadAt'),
              dataIndex: 'plannedLoadAt',
              key: 'plannedLoadAt',
              width: 100,
              sorter: true,
              render: (v: number) => <span style={{ fontSize: 12 }}>{fmtTime(v)}</span>,
            },
          ]}
        />
      </div>
      <div style={{ paddingTop: 12, paddingRight: 16, minWidth: 0 }}>
        <TripPanel key={selected} waybillId={selected} actions={(d) => <Actions detail={d} />} />
      </div>
    </div>
  );
}
