import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { findCarsByCode, type LiveCarRow } from '../../api/vehicleCounts';
import { COCKPIT_REFRESH_MS, COUNT_COLORS, abnormalReasonKeys, type CountCode } from '../../lib/cockpit';

const ROWS = 8;

/** The first cars of one count (abnormal, offline): what a dispatcher should look at. */
export function WatchList({ code, title, empty }: { code: CountCode; title: string; empty: string }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['cockpit', 'watch', code], queryFn: () => findCarsByCode(code, ROWS), refetchInterval: COCKPIT_REFRESH_MS });
  const total = q.data?.total ?? 0;
  return (
    <Card
      variant="borderless"
      className="tw-home-block"
      data-testid={`watch-${code}`}
      title={
        <span>
          {title} <Tag color={COUNT_COLORS[code]}>{total.toLocaleString()}</Tag>
        </span>
      }
    >
      <Table<LiveCarRow>
        size="small"
        rowKey="carId"
        loading={q.isPending}
        dataSource={q.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: q.isError ? <Empty description={t('home.loadFailed')} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
        columns={[
          { title: t('home.col.plate'), dataIndex: 'plate', width: 120 },
          { title: t('home.col.group'), dataIndex: 'groupName', ellipsis: true },
          code === '3'
            ? { title: t('home.col.reason'), key: 'reason', width: 150, render: (_: unknown, car: LiveCarRow) => abnormalReasonKeys(car).map((k) => t(k)).join(t('common.listSeparator')) }
            : { title: t('home.col.driver'), dataIndex: 'driverName', width: 90, ellipsis: true },
          {
            title: code === '7' ? t('home.col.lastReport') : t('home.col.time'),
            dataIndex: code === '7' ? 'received' : 'time',
            width: 160,
            render: (v: string | null) => v ?? t('home.neverReported'),
          },
        ]}
      />
      {total > ROWS && <div className="tw-watch-more">{t('home.more', { n: total - ROWS })}</div>}
    </Card>
  );
}
