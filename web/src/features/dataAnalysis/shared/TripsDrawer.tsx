import { useQuery } from '@tanstack/react-query';
import { Drawer, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Duration, TripPanel } from '../../manager/oilTransportProcess/TripTimeline';
import { trips, type Query, type TripRow } from './api';
import { fmt } from './model';

export interface Drill {
  title: string;
  query: Query;
}

/** The finished trips behind a number: the count of the whole set is the number clicked. A trip opens its timeline. */
export function TripsDrawer({ drill, onClose }: { drill: Drill | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10, sortField: undefined as string | undefined, sortOrder: undefined as string | undefined });
  const [trip, setTrip] = useState(0);
  const q = useQuery({
    queryKey: ['analysisTrips', drill?.query, page],
    queryFn: () => trips({ ...drill!.query, ...page }),
    enabled: !!drill,
  });
  const num = (digits: number) => (v: number) => fmt(v, digits);
  const columns = [
    {
      title: t('analysis.trip.no'),
      dataIndex: 'no',
      key: 'no',
      width: 200,
      sorter: true,
      render: (v: string, r: TripRow) => (
        <span>
          <Typography.Link onClick={() => setTrip(r.id)}>{v}</Typography.Link>
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {r.plate} · {r.groupName}
          </Typography.Text>
        </span>
      ),
    },
    { title: t('analysis.trip.route'), key: 'route', width: 200, render: (_: unknown, r: TripRow) => `${r.depotName} → ${r.stationName || '—'}` },
    { title: t('analysis.trip.closedAt'), dataIndex: 'closedAt', key: 'closedAt', width: 160, sorter: true },
    { title: t('analysis.fig.shippedV20'), dataIndex: 'shippedV20', key: 'shippedV20', width: 110, align: 'right' as const, sorter: true, render: num(1) },
    { title: t('analysis.fig.lossL'), dataIndex: 'lossL', key: 'lossL', width: 90, align: 'right' as const, sorter: true, render: num(1) },
    {
      title: t('analysis.fig.lossRatePct'),
      dataIndex: 'lossRatePct',
      key: 'lossRatePct',
      width: 120,
      align: 'right' as const,
      sorter: true,
      render: (v: number, r: TripRow) => (
        <Space size={4}>
          <Typography.Text type={r.over ? 'danger' : undefined}>{fmt(v, 4)}</Typography.Text>
          {r.over && <Tag color="red">{t('analysis.over')}</Tag>}
        </Space>
      ),
    },
    { title: t('analysis.fig.tonKm'), dataIndex: 'tonKm', key: 'tonKm', width: 90, align: 'right' as const, render: num(1) },
    { title: t('analysis.fig.km'), dataIndex: 'km', key: 'km', width: 80, align: 'right' as const, sorter: true, render: num(1) },
    { title: t('analysis.trip.openings'), dataIndex: 'openings', key: 'openings', width: 80, align: 'right' as const },
    { title: t('analysis.fig.avgOutToArrivalMin'), dataIndex: 'outToArrivalMin', key: 'outToArrivalMin', width: 130, render: (v: number) => <Duration min={v} /> },
  ];
  return (
    <>
      <Drawer open={!!drill} width="min(1280px, 96vw)" onClose={onClose} title={drill?.title} destroyOnHidden>
        {drill && (
          <>
            <Typography.Paragraph data-testid="drill-count">{t('analysis.drillCount', { n: q.data?.total ?? '…' })}</Typography.Paragraph>
            <Table<TripRow>
              rowKey="id"
              size="small"
              loading={q.isLoading}
              dataSource={q.data?.list ?? []}
              columns={columns}
              scroll={{ x: 1280 }}
              locale={{ emptyText: t('analysis.noTrips') }}
              pagination={{ current: page.pageNum, pageSize: page.pageSize, total: q.data?.total ?? 0, showSizeChanger: true }}
              onChange={(p, _f, s) => {
                const sorter = Array.isArray(s) ? s[0] : s;
                setPage({
                  pageNum: p.current ?? 1,
                  pageSize: p.pageSize ?? 10,
                  sortField: sorter?.order ? String(sorter.columnKey) : undefined,
                  sortOrder: sorter?.order ?? undefined,
                });
              }}
            />
          </>
        )}
      </Drawer>
      <Drawer open={trip > 0} width="min(1280px, 96vw)" onClose={() => setTrip(0)} title={t('analysis.timeline')} destroyOnHidden>
        {trip > 0 && <TripPanel waybillId={trip} />}
      </Drawer>
    </>
  );
}
