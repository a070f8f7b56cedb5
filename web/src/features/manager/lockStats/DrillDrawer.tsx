import { useQuery } from '@tanstack/react-query';
import { Alert, Drawer, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { statRows, type DrillQuery, type DrillRow } from '../../../api/lockStats';
import { Duration } from './Duration';

export type DrillTarget = Omit<DrillQuery, 'pageNum' | 'pageSize'> & { title: string; value: number };

/** The rows behind one figure (lock events, offline spells, seals or incidents), paged, with what they add up to. */
export function DrillDrawer({ target, onClose }: { target?: DrillTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState({ pageNum: 1, pageSize: 20 });
  const [shownFor, setShownFor] = useState<DrillTarget>();
  if (shownFor !== target) {
    setShownFor(target);
    setPaging({ pageNum: 1, pageSize: 20 });
  }
  const { title, value, ...q } = target ?? ({} as DrillTarget);
  const query = useQuery({
    queryKey: ['lockStatRows', q, paging],
    queryFn: () => statRows({ ...(q as DrillQuery), ...paging }),
    // no placeholder from another figure: the sum shown is always this figure's
    enabled: !!target,
  });
  const data = query.data;
  const shape = data?.shape ?? (q.column === 'offlineS' ? 'offline' : q.kind === 'seal' ? 'seals' : 'events');
  const dash = (v?: string | null) => v || '—';
  const where = (r: DrillRow) => (r.stationName ? r.stationName : <Typography.Text type="secondary">{t('lockStats.outsideFences')}</Typography.Text>);
  const common: ColumnsType<DrillRow> = [
    { title: t('lockStats.plate'), dataIndex: 'plate', key: 'plate', width: 110 },
    { title: t('lockStats.company'), dataIndex: 'groupName', key: 'groupName', width: 130 },
  ];
  const byShape: Record<string, ColumnsType<DrillRow>> = {
    events: [
      { title: t('lockStats.time'), dataIndex: 't', key: 't', width: 170 },
      { title: t('lockStats.serial'), dataIndex: 'serial', key: 'serial', width: 150 },
      ...common,
      { title: t('lockStats.place'), key: 'compartment', width: 150, render: (_, r) => `${t('lockStats.compartmentN', { n: r.compartment })} · ${t(`lockStats.device.${r.device}`)}` },
      { title: t('lockStats.event'), key: 'event', width: 110, render: (_, r) => <Tag>{t(`lockStats.eventName.${r.event ?? 0}`)}</Tag> },
      { title: t('lockStats.method'), key: 'method', width: 120, render: (_, r) => (r.method ? t(`lockStats.methodName.${r.method}`) : '—') },
      { title: t('lockStats.fence'), key: 'stationName', width: 150, render: (_, r) => where(r) },
      { title: t('lockStats.waybillNo'), dataIndex: 'waybillNo', key: 'waybillNo', width: 190, render: (v: string) => dash(v) },
    ],
    offline: [
      { title: t('lockStats.serial'), dataIndex: 'serial', key: 'serial', width: 150 },
      ...common,
      { title: t('lockStats.offlineAt'), dataIndex: 't', key: 't', width: 170 },
      {
        title: t('lockStats.backAt'),
        key: 'backAt',
        width: 230,
        render: (_, r) => (r.countedTo ? <Typography.Text type="warning">{t('lockStats.countedTo', { t: r.countedTo })}</Typography.Text> : dash(r.backAt)),
      },
      { title: t('lockStats.secondsInPeriod'), dataIndex: 'seconds', key: 'seconds', width: 160, align: 'right', render: (v: number) => <Duration s={v} /> },
    ],
    seals: [
      { title: t('lockStats.sealNo'), dataIndex: 'sealNo', key: 'sealNo', width: 130 },
      ...common,
      { title: t('lockStats.waybillNo'), dataIndex: 'waybillNo', key: 'waybillNo', width: 190 },
      { title: t('lockStats.compartment'), dataIndex: 'compartment', key: 'compartment', width: 80 },
      { title: t('lockStats.appliedAt'), dataIndex: 't', key: 't', width: 170 },
      { title: t('lockStats.state'), key: 'state', width: 120, render: (_, r) => <Tag>{t(`lockStats.sealState.${r.state ?? 1}`)}</Tag> },
      { title: t('lockStats.brokenAt'), dataIndex: 'brokenAt', key: 'brokenAt', width: 170, render: (v?: string | null) => dash(v) },
      { title: t('lockStats.brokenWhere'), key: 'stationName', width: 150, render: (_, r) => (r.brokenAt ? where(r) : '—') },
    ],
    incidents: [
      { title: t('lockStats.time'), dataIndex: 't', key: 't', width: 170 },
      { title: t('lockStats.incident'), key: 'kind', width: 120, render: (_, r) => <Tag color="red">{t(`lockStats.incidentKind.${r.kind ?? 0}`)}</Tag> },
      ...common,
      { title: t('lockStats.waybillNo'), dataIndex: 'waybillNo', key: 'waybillNo', width: 190 },
      { title: t('lockStats.sealNo'), dataIndex: 'sealNo', key: 'sealNo', width: 120, render: (v?: string) => dash(v) },
      { title: t('lockStats.fence'), key: 'stationName', width: 150, render: (_, r) => where(r) },
      { title: t('lockStats.detailText'), dataIndex: 'detail', key: 'detail', width: 200, render: (v?: string) => dash(v) },
    ],
  };
  const columns = byShape[shape];
  return (
    <Drawer open={!!target} onClose={onClose} width="min(1200px, 96vw)" title={title} destroyOnHidden>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space size="large" wrap>
          <span>{t('lockStats.drillPeriod', { from: q.from, to: q.to })}</span>
          {data && (
            <Typography.Text strong data-testid="drill-sum" data-value={data.sum} data-rows={data.total}>
              {shape === 'offline' ? (
                <>
                  {t('lockStats.drillSpells', { n: data.total })} · {t('lockStats.drillOffline')} <Duration s={data.sum} />
                </>
              ) : (
                t('lockStats.drillRows', { n: data.total })
              )}
            </Typography.Text>
          )}
          {data && data.sum !== value && (
            <Typography.Text type="warning">{t('lockStats.drillMoved', { v: value })}</Typography.Text>
          )}
        </Space>
        {query.isError && <Alert type="error" showIcon message={t('common.requestFailed')} description={query.error.message || undefined} />}
        <Table<DrillRow>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={data?.list ?? []}
          loading={query.isFetching}
          scroll={{ x: (columns ?? []).reduce((n, c) => n + (typeof c.width === 'number' ? c.width : 120), 0) }}
          locale={{ emptyText: t('lockStats.drillEmpty') }}
          onChange={(p) => setPaging({ pageNum: p.current ?? 1, pageSize: p.pageSize ?? 20 })}
          pagination={{ current: paging.pageNum, pageSize: paging.pageSize, total: data?.total ?? 0, showSizeChanger: true, showTotal: (n) => t('common.total', { total: n }) }}
        />
      </Space>
    </Drawer>
  );
}
