import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Card, Input, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALARM_GROUPS, ALARM_LEVELS, updateAlarmType, type AlarmGroup, type AlarmLevel, type AlarmType } from '../../../api/alarm';
import { useAuth } from '../../../components/AuthButton';
import { LevelTag, ROMAN, useAlarmTypes } from '../common/alarmUi';
import { describeTypeChange } from './changes';
import { confirmChanges } from '../../../components/confirmChanges';

/**
 * 报警类型: every alarm type with its level I–V, group, whether it is judged and whether it is pushed live.
 * The types are platform-wide: only a holder of policeType-edit (the platform's administrators) changes them,
 * and each change is confirmed after reading what it does; everyone else reads them.
 */
export default function PoliceTypePage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const canEdit = useAuth('edit');
  const types = useAlarmTypes();
  const client = useQueryClient();
  const [group, setGroup] = useState<string | undefined>();
  const [name, setName] = useState('');
  const [saving, setSaving] = useState<string | null>(null);
  const rows = useMemo(
    () => (types.data ?? []).filter((ty) => (!group || ty.group === group) && (!name.trim() || ty.name.includes(name.trim()))),
    [types.data, group, name],
  );
  const save = (ty: AlarmType, change: Partial<AlarmType>) => {
    const lines = describeTypeChange(ty, change, t);
    if (lines.length === 0) return;
    confirmChanges(modal, {
      title: t('policeType.confirmTitle'),
      lines,
      note: t('policeType.confirmScope'),
      testId: 'type-change',
      onOk: () => store(ty, change),
    });
  };
  const store = async (ty: AlarmType, change: Partial<AlarmType>) => {
    setSaving(ty.code);
    try {
      await updateAlarmType({ code: ty.code, level: ty.level, group: ty.group, enabled: ty.enabled, push: ty.push, ...change });
      await client.invalidateQueries({ queryKey: ['alarmTypes'] });
    } catch {
      // the client showed the server's message; the row keeps its stored values
    } finally {
      setSaving(null);
    }
  };
  return (
    <div className="tw-page">
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space wrap>
          <Input.Search allowClear placeholder={t('policeType.searchName')} style={{ width: 220 }} onSearch={setName} onChange={(e) => !e.target.value && setName('')} />
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t('policeType.allGroups')}
            value={group}
            onChange={setGroup}
            options={ALARM_GROUPS.map((g) => ({ value: g, label: t(`alarm.groupName.${g}`) }))}
          />
          <Typography.Text type="secondary">{canEdit ? t('policeType.hint') : t('policeType.readOnly')}</Typography.Text>
        </Space>
      </Card>
      {types.isError && <Alert type="error" showIcon message={t('common.requestFailed')} style={{ marginBottom: 12 }} />}
      <Table<AlarmType>
        rowKey="code"
        size="small"
        loading={types.isLoading}
        dataSource={rows}
        pagination={false}
        scroll={{ y: 'calc(100vh - 300px)' }}
        columns={[
          { title: t('policeType.name'), dataIndex: 'name', key: 'name', width: 220 },
          { title: t('policeType.code'), dataIndex: 'code', key: 'code', width: 140, render: (c: string) => <Typography.Text code>{c}</Typography.Text> },
          {
            title: t('alarm.level'),
            dataIndex: 'level',
            key: 'level',
            width: 130,
            render: (l: AlarmLevel, ty) => !canEdit ? <LevelTag level={l} /> : (
              <Select
                size="small"
                value={l}
                style={{ width: 100 }}
                disabled={saving === ty.code}
                aria-label={`${ty.name} ${t('alarm.level')}`}
                onChange={(level) => save(ty, { level })}
                options={ALARM_LEVELS.map((v) => ({ value: v, label: t('alarm.levelN', { n: ROMAN[v] }) }))}
              />
            ),
          },
          {
            title: t('alarm.groupLabel'),
            dataIndex: 'group',
            key: 'group',
            width: 150,
            render: (g: AlarmGroup, ty) => !canEdit ? t(`alarm.groupName.${g}`) : (
              <Select
                size="small"
                value={g}
                style={{ width: 120 }}
                disabled={saving === ty.code}
                onChange={(grp) => save(ty, { group: grp })}
                options={ALARM_GROUPS.map((v) => ({ value: v, label: t(`alarm.groupName.${v}`) }))}
              />
            ),
          },
          {
            title: t('policeType.enabled'),
            dataIndex: 'enabled',
            key: 'enabled',
            width: 110,
            render: (v: boolean, ty) => (canEdit ? <Switch size="small" checked={v} loading={saving === ty.code} aria-label={`${ty.name} ${t('policeType.enabled')}`} onChange={(enabled) => save(ty, { enabled })} /> : <YesNo v={v} />),
          },
          {
            title: t('policeType.push'),
            dataIndex: 'push',
            key: 'push',
            width: 110,
            render: (v: boolean, ty) => (canEdit ? <Switch size="small" checked={v} loading={saving === ty.code} aria-label={`${ty.name} ${t('policeType.push')}`} onChange={(push) => save(ty, { push })} /> : <YesNo v={v} />),
          },
        ]}
      />
    </div>
  );
}

function YesNo({ v }: { v: boolean }) {
  const { t } = useTranslation();
  return <Tag color={v ? 'success' : 'default'}>{v ? t('common.yes') : t('common.no')}</Tag>;
}
