import { Button, Form, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALARM_LEVELS, ALARM_STATES, alarmExport, findAlarms, type AlarmFilters, type AlarmRecord } from '../../../api/alarm';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { AlarmDetail } from '../common/AlarmDetail';
import { LevelTag, ROMAN, StateTag, useAlarmTypes } from '../common/alarmUi';
import { DealModal } from '../common/DealModal';
import { ALARM_DEFAULTS, alarmInitial, toAlarmFilters } from '../common/filters';

/** 报警信息: the alarms of the caller's scope with filters, processing (one or many), details and export. */
export default function PoliceMsgPage() {
  const { t } = useTranslation();
  const types = useAlarmTypes();
  // the alarm shown and how to refresh the list after it is processed from its details
  const [detail, setDetail] = useState<{ alarm: AlarmRecord; reload: () => void } | null>(null);
  const [dealing, setDealing] = useState<{ ids: number[]; done: () => void }>({ ids: [], done: () => undefined });
  return (
    <>
      <ListPage<AlarmRecord, AlarmFilters>
        queryKey="policeMsg"
        rowKey="id"
        selectable
        fetch={findAlarms}
        initialFilters={alarmInitial() as Partial<AlarmFilters>}
        toFilters={toAlarmFilters}
        exportAlways
        exportRequest={alarmExport}
        filters={
          <>
            <Form.Item name="groupId" label={t('alarm.group')}>
              <GroupSelect filter />
            </Form.Item>
            <Form.Item name="carNumber" label={t('alarm.plate')}>
              <Input allowClear style={{ width: 140 }} placeholder={t('common.all')} />
            </Form.Item>
            <Form.Item name="type" label={t('alarm.type')}>
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                style={{ width: 180 }}
                placeholder={t('common.all')}
                loading={types.isLoading}
                options={(types.data ?? []).map((ty) => ({ value: ty.code, label: ty.name }))}
                popupMatchSelectWidth={false}
              />
            </Form.Item>
            <Form.Item name="level" label={t('alarm.level')}>
              <Select allowClear style={{ width: 110 }} placeholder={t('common.all')} options={ALARM_LEVELS.map((l) => ({ value: l, label: t('alarm.levelN', { n: ROMAN[l] }) }))} />
            </Form.Item>
            <Form.Item name="state" label={t('alarm.stateLabel')}>
              <Select allowClear style={{ width: 150 }} placeholder={t('common.all')} options={ALARM_STATES.map((s) => ({ value: s, label: t(`alarm.state.${s}`) }))} />
            </Form.Item>
            <Form.Item name="range" label={t('alarm.range')}>
              <TimeRangePicker showTime defaults={ALARM_DEFAULTS} />
            </Form.Item>
          </>
        }
        toolbar={({ selectedRowKeys, reload, clearSelection }) => (
          <Button
            disabled={selectedRowKeys.length === 0}
            onClick={() => setDealing({ ids: selectedRowKeys as number[], done: () => (clearSelection(), reload()) })}
          >
            {t('policeMsg.batchDeal', { n: selectedRowKeys.length })}
          </Button>
        )}
        tableProps={{ scroll: { x: 1500 } }}
        columns={({ reload }) => [
          { title: t('alarm.plate'), dataIndex: 'carNumber', key: 'carNumber', width: 120, sorter: true },
          { title: t('alarm.type'), dataIndex: 'typeName', key: 'typeName', width: 170, ellipsis: true },
          { title: t('alarm.level'), dataIndex: 'level', key: 'level', width: 90, sorter: true, render: (l: number) => <LevelTag level={l} /> },
          { title: t('alarm.start'), dataIndex: 'startTime', key: 'startTime', width: 170, sorter: true },
          { title: t('alarm.end'), dataIndex: 'endTime', key: 'endTime', width: 170, render: (v: string | null) => v ?? t('alarm.ongoing') },
          { title: t('alarm.speed'), dataIndex: 'speed', key: 'speed', width: 110, render: (v: number) => v.toFixed(1) },
          { title: t('alarm.detail'), dataIndex: 'detail', key: 'detail', width: 220, ellipsis: true },
          { title: t('alarm.stateLabel'), dataIndex: 'state', key: 'state', width: 130, sorter: true, render: (s: AlarmRecord['state']) => <StateTag state={s} /> },
          { title: t('alarm.handler'), dataIndex: 'handlerName', key: 'handlerName', width: 110 },
          { title: t('alarm.remark'), dataIndex: 'remark', key: 'remark', width: 180, ellipsis: true },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 150,
            fixed: 'right',
            render: (_, a) => (
              <Space size={4}>
                <Button type="link" size="small" onClick={() => setDetail({ alarm: a, reload })}>
                  {t('alarm.details')}
                </Button>
                <Button type="link" size="small" onClick={() => setDealing({ ids: [a.id], done: reload })}>
                  {t('alarm.deal')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <AlarmDetail
        alarm={detail?.alarm ?? null}
        onClose={() => setDetail(null)}
        onDeal={(a) => {
          const reload = detail?.reload ?? (() => undefined);
          setDetail(null);
          setDealing({ ids: [a.id], done: reload });
        }}
      />
      <DealModal ids={dealing.ids} onClose={() => setDealing({ ids: [], done: () => undefined })} onDone={dealing.done} />
    </>
  );
}
