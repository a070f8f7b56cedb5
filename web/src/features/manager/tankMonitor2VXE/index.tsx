import { Checkbox, Form, Input, InputNumber, Select, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { tankRowsExport, tankRowsPage, type TankRow, type TankRowFilters } from '../../../api/tankMonitor';
import type { PageQuery } from '../../../api/types';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { PRODUCTS } from '../../../api/tankInfo';
import { AUTO_REFRESH_MS, fillText, rowKey, toRowFilters } from './rows';

type KeyedRow = TankRow & { _key: string };

async function fetchRows(q: PageQuery & TankRowFilters) {
  const p = await tankRowsPage(q);
  return { ...p, list: p.list.map((r) => ({ ...r, _key: rowKey(r) })) };
}

/** Re-reads the table every AUTO_REFRESH_MS while checked (the table is served from the live state). */
function AutoRefresh({ reload }: { reload: () => void }) {
  const { t } = useTranslation();
  const [on, setOn] = useState(true);
  useEffect(() => {
    if (!on) return;
    const id = window.setInterval(reload, AUTO_REFRESH_MS);
    return () => window.clearInterval(id);
  }, [on, reload]);
  return (
    <Checkbox checked={on} onChange={(e) => setOn(e.target.checked)} data-testid="auto-refresh">
      {t('tankMonitor.autoRefresh', { s: AUTO_REFRESH_MS / 1000 })}
    </Checkbox>
  );
}

/** 油罐监控2: every compartment of every car in scope as a row, filtered, sorted, paged, exported. */
export default function TankMonitorTablePage() {
  const { t } = useTranslation();
  const open = (b: boolean) => (b ? <Tag color="orange">{t('tankMonitor.state.open')}</Tag> : <span>{t('tankMonitor.state.closed')}</span>);
  return (
    <ListPage<KeyedRow, TankRowFilters>
      queryKey="tankMonitor2VXE"
      rowKey="_key"
      fetch={fetchRows}
      toFilters={toRowFilters}
      exportRequest={tankRowsExport}
      toolbar={(ctx) => <AutoRefresh reload={ctx.reload} />}
      filters={
        <>
          <Form.Item name="groupId" label={t('tankMonitor.group')}>
            <GroupSelect filter />
          </Form.Item>
          <Form.Item name="plate" label={t('tankMonitor.plate')}>
            <Input allowClear style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="product" label={t('tankMonitor.product')}>
            <Select
              allowClear
              style={{ width: 130 }}
              placeholder={t('common.all')}
              options={[...PRODUCTS.map((p) => ({ value: p, label: t(`tankInfo.productName.${p}`) })), { value: -1, label: t('tankMonitor.unlisted') }]}
            />
          </Form.Item>
          <Form.Item label={t('tankMonitor.fill')}>
            <Space.Compact>
              <Form.Item name="fillMin" noStyle>
                <InputNumber min={0} max={1000} style={{ width: 80 }} placeholder="0" aria-label={t('tankMonitor.fillMin')} />
              </Form.Item>
              <Form.Item name="fillMax" noStyle>
                <InputNumber min={0} max={1000} style={{ width: 120 }} placeholder="100" addonAfter="%" aria-label={t('tankMonitor.fillMax')} />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
          <Form.Item name="openOnly" valuePropName="checked">
            <Checkbox>{t('tankMonitor.openOnly')}</Checkbox>
          </Form.Item>
          <Form.Item name="onlineOnly" valuePropName="checked">
            <Checkbox>{t('tankMonitor.onlineOnly')}</Checkbox>
          </Form.Item>
        </>
      }
      columns={[
        { title: t('tankMonitor.plate'), dataIndex: 'plate', key: 'plate', width: 120, sorter: true, fixed: 'left' },
        { title: t('tankMonitor.group'), dataIndex: 'groupName', key: 'groupName', width: 130, ellipsis: true },
        { title: t('tankMonitor.no'), dataIndex: 'no', key: 'no', width: 90, sorter: true },
        { title: t('tankMonitor.product'), key: 'product', width: 110, sorter: true, ellipsis: true, render: (_, r) => r.productName || t('tankMonitor.unlistedShort') },
        { title: t('tankMonitor.levelMm'), key: 'levelMm', width: 120, sorter: true, align: 'right', render: (_, r) => (r.hasReading ? r.levelMm : '—') },
        { title: t('tankMonitor.volumeL'), key: 'volume', width: 120, sorter: true, align: 'right', render: (_, r) => (r.hasReading ? r.volume.toLocaleString('en-US') : '—') },
        { title: t('tankMonitor.v20L'), key: 'v20', width: 110, sorter: true, align: 'right', render: (_, r) => (r.hasReading && r.product >= 0 ? r.v20.toLocaleString('en-US') : '—') },
        { title: t('tankMonitor.temperatureC'), key: 'temperature', width: 120, sorter: true, align: 'right', render: (_, r) => (r.hasReading ? r.temperature.toFixed(1) : '—') },
        { title: t('tankMonitor.fillPct'), key: 'fillPct', width: 100, sorter: true, align: 'right', render: (_, r) => fillText(r.fillPct) },
        { title: t('tankMonitor.covers'), key: 'covers', width: 90, render: (_, r) => open(r.coversOpen) },
        { title: t('tankMonitor.valves'), key: 'valves', width: 90, render: (_, r) => open(r.valvesOpen) },
        { title: t('tankMonitor.seal'), dataIndex: 'sealText', key: 'seal', width: 100, render: (s: string, r) => (r.seal === 2 ? <Tag color="red">{s}</Tag> : s) },
        { title: t('tankMonitor.levelTime'), key: 'time', width: 170, sorter: true, render: (_, r) => r.time ?? '—' },
        {
          title: t('tankMonitor.onlineState'),
          key: 'online',
          width: 90,
          sorter: true,
          render: (_, r) => <Tag color={r.online ? 'green' : 'default'}>{r.online ? t('tankMonitor.online') : t('tankMonitor.offline')}</Tag>,
        },
        {
          title: t('common.actions'),
          key: 'actions',
          width: 150,
          fixed: 'right',
          render: (_, r) => (
            <Space size="small">
              <Link to={`/manager/tankMonitor?carId=${r.carId}`} data-testid="to-tank">
                {t('tankMonitor.view')}
              </Link>
              <Link to={`/manager/hydtrend?carId=${r.carId}`}>{t('tankMonitor.trend')}</Link>
            </Space>
          ),
        },
      ]}
    />
  );
}
