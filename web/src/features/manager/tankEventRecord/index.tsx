import { useQuery } from '@tanstack/react-query';
import { Form, Select, Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { groundTankStatus, TANK_EVENT_KINDS, tankEventExport, tankEventPage, type TankEvent, type TankEventFilters } from '../../../api/groundTank';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { HISTORY_DEFAULTS, historyInitial, toHistoryFilters } from '../history/filters';
import { detailText, KIND_COLORS, litres, timeText, trendHref } from './format';
import { GaugePanel } from './GaugePanel';

/** 油罐事件记录: the station tank events (deliveries, stock, water, gauge alarms, leaks, gauge offline) and the gauges' states. */
export default function TankEventRecordPage() {
  const { t } = useTranslation();
  const tanks = useQuery({ queryKey: ['groundTankStatus'], queryFn: () => groundTankStatus() });
  const stations = useMemo(() => {
    const m = new Map<number, string>();
    for (const s of tanks.data ?? []) m.set(s.stationId, s.stationName);
    return [...m].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label, 'zh'));
  }, [tanks.data]);
  return (
    <>
      <GaugePanel />
      <ListPage<TankEvent, TankEventFilters>
        queryKey="tankEventRecord"
        rowKey="id"
        fetch={(q) => tankEventPage(q)}
        initialFilters={historyInitial() as Partial<TankEventFilters>}
        toFilters={(v) => toHistoryFilters<TankEventFilters>(v)}
        exportAlways
        exportRequest={tankEventExport}
        filters={
          <>
            <Form.Item name="groupId" label={t('tankEvents.group')}>
              <GroupSelect filter />
            </Form.Item>
            <Form.Item name="stationId" label={t('tankEvents.station')}>
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder={t('common.all')}
                options={stations}
                loading={tanks.isLoading}
                style={{ width: 220 }}
                data-testid="filter-station"
              />
            </Form.Item>
            <Form.Item noStyle shouldUpdate={(a, b) => a.stationId !== b.stationId}>
              {({ getFieldValue }) => {
                const sid = getFieldValue('stationId') as number | undefined;
                const opts = (tanks.data ?? [])
                  .filter((s) => !sid || s.stationId === sid)
                  .map((s) => ({ value: s.tankId, label: sid ? `${s.tankNo}# ${s.name}` : `${s.stationName} ${s.tankNo}#` }));
                return (
                  <Form.Item name="tankId" label={t('tankEvents.tank')}>
                    <Select allowClear showSearch optionFilterProp="label" placeholder={t('common.all')} options={opts} style={{ width: 200 }} />
                  </Form.Item>
                );
              }}
            </Form.Item>
            <Form.Item name="kind" label={t('tankEvents.kind')}>
              <Select
                allowClear
                placeholder={t('common.all')}
                style={{ width: 150 }}
                options={TANK_EVENT_KINDS.map((k) => ({ value: k, label: t(`tankEvents.kinds.${k}`) }))}
                data-testid="filter-kind"
              />
            </Form.Item>
            <Form.Item name="range" label={t('tankEvents.range')}>
              <TimeRangePicker showTime defaults={HISTORY_DEFAULTS} />
            </Form.Item>
          </>
        }
        tableProps={{ scroll: { x: 1420 }, locale: { emptyText: t('tankEvents.empty') } }}
        columns={[
          { title: t('tankEvents.station'), dataIndex: 'stationName', key: 'stationName', sorter: true, width: 200, ellipsis: true },
          {
            title: t('tankEvents.tank'),
            dataIndex: 'tankNo',
            key: 'tankNo',
            sorter: true,
            width: 130,
            ellipsis: true,
            render: (no: number, ev) => ev.tankName || `${no}#`,
          },
          {
            title: t('tankEvents.kind'),
            dataIndex: 'kind',
            key: 'kind',
            sorter: true,
            width: 130,
            render: (k: string) => (
              <Tag color={KIND_COLORS[k]} data-testid={`kind-${k}`}>
                {t(`tankEvents.kinds.${k}`)}
              </Tag>
            ),
          },
          { title: t('tankEvents.start'), dataIndex: 'startAt', key: 'startAt', sorter: true, width: 160, render: (v: number) => timeText(v) },
          {
            title: t('tankEvents.end'),
            dataIndex: 'endAt',
            key: 'endAt',
            sorter: true,
            width: 160,
            render: (v: number | null) => (v ? timeText(v) : <Tag color="processing">{t('tankEvents.ongoing')}</Tag>),
          },
          { title: t('tankEvents.detail.title'), key: 'detail', width: 230, ellipsis: true, render: (_, ev) => detailText(t, ev) },
          {
            title: t('tankEvents.volume'),
            dataIndex: 'beforeL',
            key: 'beforeL',
            sorter: true,
            width: 170,
            align: 'right',
            render: (v: number, ev) => (ev.endAt && ev.kind !== 'gaugeOffline' ? `${litres(v)} → ${litres(ev.afterL)}` : litres(v)),
          },
          {
            title: t('tankEvents.v20'),
            dataIndex: 'beforeV20',
            key: 'v20',
            width: 170,
            align: 'right',
            render: (v: number, ev) => (ev.endAt && ev.kind !== 'gaugeOffline' ? `${litres(v)} → ${litres(ev.afterV20)}` : litres(v)),
          },
          {
            title: t('tankEvents.trend'),
            key: 'trend',
            width: 70,
            fixed: 'right',
            render: (_, ev) => (
              <Link to={trendHref(ev)} data-testid="trend-link">
                {t('tankEvents.trend')}
              </Link>
            ),
          },
        ]}
      />
    </>
  );
}
