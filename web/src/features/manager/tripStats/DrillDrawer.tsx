import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { statTrips, type DrillQuery, type DrillTrip } from '../../../api/tripStats';
import { FIGURES } from './model';

/** The finished trips behind one number: their figures as counted in the clicked row, and their sums (which are the number). */
export function DrillDrawer({ query, title, onClose }: { query?: Omit<DrillQuery, 'pageNum' | 'pageSize'>; title: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const q = useQuery({
    queryKey: ['tripStatsDrill', query, page],
    queryFn: () => statTrips({ ...query!, ...page }),
    enabled: !!query,
  });
  const columns = [
    { title: t('tripStats.no'), dataIndex: 'no', key: 'no', width: 220, fixed: 'left' as const },
    {
      title: t('tripStats.plate'),
      dataIndex: 'plate',
      key: 'plate',
      width: 150,
      render: (v: string, r: DrillTrip) => (
        <span>
          {v}
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {r.groupName}
            {r.salesName ? ` · ${r.salesName}` : ''}
          </Typography.Text>
        </span>
      ),
    },
    { title: t('tripStats.closedAt'), dataIndex: 'closedAt', key: 'closedAt', width: 160 },
    ...FIGURES.filter((f) => f.key !== 'trips').map((f) => ({
      title: t(`tripStats.${f.key}`),
      dataIndex: f.key,
      key: f.key,
      width: f.width,
      align: 'right' as const,
      render: (v: number) => f.format(v),
    })),
  ];
  const sum = q.data?.sum;
  return (
    <Drawer open={!!query} width="min(1400px, 96vw)" title={title} onClose={onClose} destroyOnHidden>
      {q.error && <Alert type="error" showIcon message={(q.error as Error).message} style={{ marginBottom: 12 }} />}
      {sum && (
        <Descriptions size="small" column={6} bordered style={{ marginBottom: 12 }} data-testid="drill-sum">
          <Descriptions.Item label={t('tripStats.trips')}>
            <span data-testid="drill-count">{q.data!.total}</span>
          </Descriptions.Item>
          {FIGURES.filter((f) => f.key !== 'trips').map((f) => (
            <Descriptions.Item key={f.key} label={t(`tripStats.${f.key}`)}>
              <span data-testid={`drill-sum-${f.key}`}>{f.format(sum[f.key])}</span>
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
      <Table<DrillTrip>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        columns={columns}
        dataSource={q.data?.list ?? []}
        scroll={{ x: 1700 }}
        locale={{ emptyText: t('tripStats.noTrips') }}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: q.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (n) => t('tripStats.tripCount', { n }),
          onChange: (pageNum, pageSize) => setPage({ pageNum: pageSize !== page.pageSize ? 1 : pageNum, pageSize }),
        }}
      />
    </Drawer>
  );
}
