import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Button, Card, Empty, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { processPage, type Trip } from '../../../api/transportProcess';
import { hm, PHASE_ORDER, phaseOf, type Phase } from '../oilTransportProcess/timeline';
import { StateTag } from '../oilTransportProcess/TripTimeline';

/** How often the board refreshes, ms. */
export const REFRESH_MS = 15_000;
/** The board shows at most this many trips (the page size the server allows). */
const BOARD_SIZE = 500;

/** The trips of the board grouped by phase, the late ones first, then the longest in their phase. */
export function groupByPhase(trips: Trip[]): Record<Phase, Trip[]> {
  const out = Object.fromEntries(PHASE_ORDER.map((p) => [p, [] as Trip[]])) as Record<Phase, Trip[]>;
  for (const t of trips) {
    const p = phaseOf(t.state);
    if (p) out[p].push(t);
  }
  for (const p of PHASE_ORDER) out[p].sort((a, b) => Number(b.late) - Number(a.late) || a.stateAt - b.stateAt);
  return out;
}

function TripCard({ trip, now, open }: { trip: Trip; now: number; open: (id: number) => void }) {
  const { t } = useTranslation();
  const since = hm((now - trip.stateAt) / 60_000);
  const dest = trip.destinations.map((d) => d.stationName).join('、') || '—';
  return (
    <Card
      size="small"
      hoverable
      onClick={() => open(trip.id)}
      data-testid="board-card"
      style={{ marginBottom: 8, borderLeft: `3px solid ${trip.late || trip.flagged ? '#cf1322' : '#1677ff'}` }}
      styles={{ body: { padding: 8 } }}
    >
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Text strong>{trip.plate}</Typography.Text>
        <StateTag state={trip.state} />
      </Space>
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
        {trip.no}
      </Typography.Text>
      <div style={{ fontSize: 12 }}>→ {dest}</div>
      <Space size={4} wrap style={{ marginTop: 4 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {since ? t('transportProcess2.inPhase', { d: t('transportProcess.duration', since) }) : ''}
        </Typography.Text>
        {trip.late && <Tag color="red">{t('transportProcess2.late', { t: dayjs(trip.plannedArriveAt).format('HH:mm') })}</Tag>}
        {trip.flagged && <Tag color="red">{t('transportProcess.flagged')}</Tag>}
        {trip.leftUnsealed && <Tag color="red">{t('waybillCommon.diff.4')}</Tag>}
      </Space>
    </Card>
  );
}

/**
 * 运输过程 (04-26), the dispatcher's board (D46): every unfinished trip and today's finished ones, one
 * column per phase with counts, late trips first; refreshed every 15 s; a card opens the trip's timeline.
 */
export default function TransportProcessBoard({ now: nowFn = () => Date.now() }: { now?: () => number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const today = dayjs(nowFn()).startOf('day').valueOf();
  const q = useQuery({
    queryKey: ['transportProcess2', today],
    queryFn: () => processPage({ pageNum: 1, pageSize: BOARD_SIZE, board: true, start: today }),
    refetchInterval: REFRESH_MS,
  });
  const now = nowFn();
  const groups = groupByPhase(q.data?.list ?? []);
  const open = (id: number) => void navigate(`/manager/oilTransportProcess?waybillId=${id}`);
  return (
    <div className="tw-page" style={{ padding: 12 }}>
      <Space style={{ marginBottom: 12 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('transportProcess2.title', { date: dayjs(now).format('YYYY-MM-DD') })}
        </Typography.Title>
        <Typography.Text type="secondary">{t('transportProcess2.hint', { s: REFRESH_MS / 1000 })}</Typography.Text>
        <Button size="small" icon={<ReloadOutlined />} loading={q.isFetching} onClick={() => void q.refetch()}>
          {t('common.refresh')}
        </Button>
        {q.data && q.data.total > BOARD_SIZE && <Tag color="orange">{t('transportProcess2.truncated', { n: BOARD_SIZE, total: q.data.total })}</Tag>}
      </Space>
      {q.isError && <Alert type="warning" showIcon message={t('transportProcess.loadFailed')} style={{ marginBottom: 12 }} />}
      <div style={{ display: 'grid', gridTemplateColumns: `repeat(${PHASE_ORDER.length}, minmax(180px, 1fr))`, gap: 12, overflowX: 'auto' }}>
        {PHASE_ORDER.map((p) => (
          <Card
            key={p}
            size="small"
            data-testid={`phase-${p}`}
            title={
              <Space>
                {t(`transportProcess2.phase.${p}`)}
                <Badge count={groups[p].length} showZero color={groups[p].length ? '#1677ff' : '#d9d9d9'} />
              </Space>
            }
            styles={{ body: { background: '#fafafa', minHeight: 360, maxHeight: 'calc(100vh - 230px)', overflowY: 'auto', padding: 8 } }}
          >
            {groups[p].length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('transportProcess2.none')} />
            ) : (
              groups[p].map((trip) => <TripCard key={trip.id} trip={trip} now={now} open={open} />)
            )}
          </Card>
        ))}
      </div>
    </div>
  );
}
