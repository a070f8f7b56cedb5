import { useQuery } from '@tanstack/react-query';
import { Alert, Drawer, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { overviewTrips, type OverviewQuery } from '../../../api/overview';
import type { Trip } from '../../../api/transportProcess';
import { fmtL, fmtTime } from '../oilTransportProcess/timeline';
import { StateTag } from '../oilTransportProcess/TripTimeline';

/** What the drawer lists: the trips of the period (or one day, one company) behind a figure. */
export interface DrillAsk extends OverviewQuery {
  title: string;
  day?: string;
  over?: 'over';
}

/** The drill-down: the transport record's rows behind a figure, paged, with their count and totals. */
export function TripsDrawer({ ask, onClose }: { ask: DrillAsk | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const [sort, setSort] = useState<{ sortField?: string; sortOrder?: string }>({});
  const q = useQuery({
    queryKey: ['overviewTrips', ask, page, sort],
    enabled: !!ask,
    queryFn: () => {
      const { title: _title, ...rest } = ask!;
      return overviewTrips({ ...rest, ...page, ...sort });
    },
  });
  const columns = [
    { title: t('transportProcess.no'), dataIndex: 'no', key: 'no', width: 200, sorter: true },
    { title: t('overview.plate'), dataIndex: 'plate', key: 'plate', width: 110 },
    { title: t('overview.company'), dataIndex: 'groupName', key: 'groupName', width: 120 },
    { title: t('transportProcess.state'), dataIndex: 'state', key: 'state', width: 110, render: (_: unknown, r: Trip) => <StateTag state={r.state} /> },
    { title: t('transportRecord.closedAt'), dataIndex: 'closedAt', key: 'closedAt', width: 160, sorter: true, render: (v: number) => fmtTime(v) },
    { title: t('transportProcess.shippedV20'), dataIndex: 'shippedV20', key: 'shippedV20', width: 120, align: 'right' as const, sorter: true, render: (v: number) => fmtL(v) },
    { title: t('transportProcess.receivedV20'), dataIndex: 'receivedV20', key: 'receivedV20', width: 120, align: 'right' as const, render: (v: number) => fmtL(v) },
    { title: t('transportProcess.lossL'), dataIndex: 'lossL', key: 'lossL', width: 90, align: 'right' as const, sorter: true, render: (v: number) => fmtL(v) },
    {
      title: t('transportProcess.lossRate'),
      dataIndex: 'lossRatePct',
      key: 'lossRatePct',
      width: 110,
      align: 'right' as const,
      sorter: true,
      render: (v: number, r: Trip) => <Typography.Text type={r.over ? 'danger' : undefined}>{`${v.toFixed(4)} %`}</Typography.Text>,
    },
    { title: t('transportProcess.loadedKm'), dataIndex: 'loadedKm', key: 'loadedKm', width: 90, align: 'right' as const, render: (v: number) => v.toFixed(1) },
  ];
  const data = q.data;
  return (
    <Drawer
      open={!!ask}
      width="min(1240px, 96vw)"
      onClose={() => {
        setPage({ pageNum: 1, pageSize: 20 });
        setSort({});
        onClose();
      }}
      title={ask?.title}
      destroyOnHidden
    >
      {q.isError && <Alert type="error" showIcon message={t('overview.loadFailed')} />}
      {data && (
        <Typography.Paragraph data-testid="drill-count">
          {t('overview.drillCount', { n: data.total })} · {t('overview.tile.shippedV20')} {fmtL(data.totals.shippedV20)} ·{' '}
          {t('overview.tile.lossL')} {fmtL(data.totals.lossL)} · {t('overview.tile.lossRate')} {data.totals.lossRatePct.toFixed(4)} %
        </Typography.Paragraph>
      )}
      <Table<Trip>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={data?.list ?? []}
        columns={columns}
        scroll={{ x: 1230 }}
        locale={{ emptyText: t('overview.noTrips') }}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (n) => t('overview.drillCount', { n }),
        }}
        onChange={(p, _f, s) => {
          const one = Array.isArray(s) ? s[0] : s;
          setPage({ pageNum: p.current ?? 1, pageSize: p.pageSize ?? 20 });
          setSort(one?.order ? { sortField: String(one.field), sortOrder: one.order } : {});
        }}
      />
    </Drawer>
  );
}
