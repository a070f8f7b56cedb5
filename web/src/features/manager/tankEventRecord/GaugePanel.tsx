import { useQuery } from '@tanstack/react-query';
import { Alert, Collapse, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { groundGauges, type GaugeView } from '../../../api/groundTank';
import { STATE_COLORS, timeText } from './format';

/**
 * The station gauges of the caller's scope with their connection state, refreshed every 15 s: a
 * one-line summary, unfolded at first only when a gauge is offline or answering garbage (those come
 * first in the list).
 */
export function GaugePanel() {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['groundGauges'], queryFn: () => groundGauges(), refetchInterval: 15_000 });
  const list = q.data ?? [];
  const count = (s: string) => list.filter((g) => g.state === s).length;
  const troubled = count('offline') + count('garbage') > 0;
  const [open, setOpen] = useState<boolean | undefined>(undefined);
  const expanded = open ?? troubled;
  return (
    <Collapse
      size="small"
      data-testid="gauge-panel"
      style={{ marginBottom: 12, background: 'var(--ant-color-bg-container, #fff)' }}
      activeKey={expanded ? ['gauges'] : []}
      onChange={(keys) => setOpen((Array.isArray(keys) ? keys : [keys]).includes('gauges'))}
      items={[
        {
          key: 'gauges',
          label: <Typography.Text strong>{t('tankEvents.gauges.title')}</Typography.Text>,
          extra: (
            <Space size={4} data-testid="gauge-counts">
              <Tag color="success">{t('tankEvents.state.online')} {count('online')}</Tag>
              <Tag color="error">{t('tankEvents.state.offline')} {count('offline')}</Tag>
              <Tag color="warning">{t('tankEvents.state.garbage')} {count('garbage')}</Tag>
            </Space>
          ),
          children: <GaugeTable list={list} loading={q.isLoading} failed={q.isError} />,
        },
      ]}
    />
  );
}

function GaugeTable({ list, loading, failed }: { list: GaugeView[]; loading: boolean; failed: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {failed ? <Alert type="error" showIcon message={t('tankEvents.gauges.loadFailed')} /> : null}
      <Table<GaugeView>
        size="small"
        rowKey="addr"
        loading={loading}
        dataSource={list}
        pagination={{ pageSize: 5, size: 'small', showSizeChanger: false, hideOnSinglePage: true }}
        locale={{ emptyText: t('tankEvents.gauges.empty') }}
        scroll={{ x: 1000 }}
        columns={[
          { title: t('tankEvents.gauges.addr'), dataIndex: 'addr', key: 'addr', width: 170 },
          {
            title: t('tankEvents.gauges.tanks'),
            key: 'tanks',
            ellipsis: true,
            render: (_, g) => `${g.stations.join('、')}（${g.tanks.map((x) => x.tankNo).join(', ')}）`,
          },
          {
            title: t('tankEvents.gauges.state'),
            dataIndex: 'state',
            key: 'state',
            width: 110,
            render: (s: GaugeView['state']) => (
              <Tag color={STATE_COLORS[s]} data-testid={`gauge-state-${s}`}>
                {t(`tankEvents.state.${s}`)}
              </Tag>
            ),
          },
          { title: t('tankEvents.gauges.since'), dataIndex: 'since', key: 'since', width: 170, render: (v: number) => timeText(v) || t('tankEvents.gauges.notPolled') },
          {
            title: t('tankEvents.gauges.lastError'),
            dataIndex: 'lastError',
            key: 'lastError',
            width: 320,
            ellipsis: true,
            render: (v: string, g) => (g.state === 'online' || !v ? <Typography.Text type="secondary">—</Typography.Text> : <Typography.Text type="danger">{v}</Typography.Text>),
          },
        ]}
      />
    </>
  );
}
