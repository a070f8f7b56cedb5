import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { batteryText, KINDS, lockDelete, lockExport, lockPage, STATES, stateColour, type Lock, type LockQuery } from './api';
import { BindModal, placeText, UnbindModal } from './BindModal';
import { ImportModal } from './ImportModal';
import { LockForm } from './LockForm';

type Filters = Omit<LockQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** The bound filter's form value ('yes' / 'no') as the query's boolean. */
export function toLockFilters(v: Record<string, unknown>): Filters {
  const { bound, ...rest } = v as { bound?: string } & Filters;
  return { ...rest, ...(bound ? { bound: bound === 'yes' } : {}) };
}

type Dialog = { kind: 'edit'; lock: Lock | null } | { kind: 'bind' | 'unbind'; lock: Lock } | { kind: 'import' };

/** 蓝牙锁 (basedata/blueLock, 03-05): the lock registry, binding to a car's compartment devices, import and export. */
export default function BlueLockPage() {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  return (
    <ListPage<Lock, Filters>
      queryKey="blueLock"
      rowKey="id"
      fetch={(q) => lockPage(q as LockQuery)}
      toFilters={toLockFilters}
      exportCode="export"
      exportRequest={lockExport}
      filters={
        <>
          <Form.Item name="serial" label={t('locks.serial')}>
            <Input allowClear style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="plate" label={t('locks.plate')}>
            <Input allowClear style={{ width: 130 }} />
          </Form.Item>
          <Form.Item name="kind" label={t('locks.kind')}>
            <Select allowClear style={{ width: 140 }} placeholder={t('common.all')} options={KINDS.map((k) => ({ value: k, label: t(`locks.kindName.${k}`) }))} />
          </Form.Item>
          <Form.Item name="state" label={t('locks.state')}>
            <Select allowClear style={{ width: 110 }} placeholder={t('common.all')} options={STATES.map((s) => ({ value: s, label: t(`locks.stateName.${s}`) }))} />
          </Form.Item>
          <Form.Item name="bound" label={t('locks.bound')}>
            <Select
              allowClear
              style={{ width: 110 }}
              placeholder={t('common.all')}
              options={[
                { value: 'yes', label: t('locks.boundYes') },
                { value: 'no', label: t('locks.boundNo') },
              ]}
            />
          </Form.Item>
          <Form.Item name="groupId" label={t('locks.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <Space>
            <AuthButton code="edit">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'edit', lock: null })}>
                {t('locks.addTitle')}
              </Button>
            </AuthButton>
            <AuthButton code="import">
              <Button icon={<ImportOutlined />} onClick={() => setDialog({ kind: 'import' })}>
                {t('locks.import')}
              </Button>
            </AuthButton>
          </Space>
          {dialog?.kind === 'edit' && <LockForm lock={dialog.lock} onClose={() => setDialog(null)} onSaved={() => (setDialog(null), reload())} />}
          {dialog?.kind === 'bind' && <BindModal lock={dialog.lock} onClose={() => setDialog(null)} onDone={() => (setDialog(null), reload())} />}
          {dialog?.kind === 'unbind' && <UnbindModal lock={dialog.lock} onClose={() => setDialog(null)} onDone={() => (setDialog(null), reload())} />}
          {dialog?.kind === 'import' && <ImportModal onClose={() => setDialog(null)} onSaved={reload} />}
        </>
      )}
      tableProps={{ scroll: { x: 1680 }, locale: { emptyText: t('locks.empty') } }}
      columns={({ reload }) => [
        {
          title: t('locks.serial'),
          dataIndex: 'serial',
          key: 'serial',
          sorter: true,
          width: 170,
          fixed: 'left',
          render: (v: string) => (
            <Tooltip title={t('locks.historyHint')}>
              <Link to={`/basedata/blueLockBindRecord?serial=${encodeURIComponent(v)}`}>{v}</Link>
            </Tooltip>
          ),
        },
        { title: t('locks.kind'), dataIndex: 'kind', key: 'kind', sorter: true, width: 120, render: (k: number) => <Tag color={k === 2 ? 'geekblue' : 'cyan'}>{t(`locks.kindName.${k}`)}</Tag> },
        { title: t('locks.state'), dataIndex: 'state', key: 'state', sorter: true, width: 90, render: (s: number) => <Tag color={stateColour(s)}>{t(`locks.stateName.${s}`)}</Tag> },
        { title: t('locks.placeTitle'), key: 'plate', sorter: true, width: 270, render: (_, l) => placeText(t, l) },
        { title: t('locks.battery'), dataIndex: 'batteryPct', key: 'batteryPct', sorter: true, width: 80, align: 'right', render: batteryText },
        {
          title: t('locks.online'),
          dataIndex: 'online',
          key: 'online',
          width: 80,
          render: (v: boolean | null) => (v == null ? '—' : <Tag color={v ? 'green' : 'default'}>{t(v ? 'locks.isOnline' : 'locks.isOffline')}</Tag>),
        },
        { title: t('locks.lastEventAt'), dataIndex: 'lastEventAt', key: 'lastEventAt', sorter: true, width: 160, render: (v: string) => v || '—' },
        { title: t('locks.model'), dataIndex: 'model', key: 'model', sorter: true, width: 120, render: (v: string) => v || '—' },
        { title: t('locks.firmware'), dataIndex: 'firmware', key: 'firmware', sorter: true, width: 90, render: (v: string) => v || '—' },
        { title: t('locks.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 120, ellipsis: true },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 240,
          render: (_, l) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', lock: l })}>
                  {t('common.edit')}
                </Button>
              </AuthButton>
              <AuthButton code="bind">
                <Button type="link" size="small" disabled={l.state === 3 || l.state === 4} onClick={() => setDialog({ kind: 'bind', lock: l })}>
                  {t(l.carId ? 'locks.move' : 'locks.bind')}
                </Button>
                {l.carId && (
                  <Button type="link" size="small" danger onClick={() => setDialog({ kind: 'unbind', lock: l })}>
                    {t('locks.unbind')}
                  </Button>
                )}
              </AuthButton>
              <AuthButton code="delete">
                {l.carId ? (
                  <Tooltip title={t('locks.deleteBoundHint')}>
                    <Button type="link" size="small" danger disabled>
                      {t('common.delete')}
                    </Button>
                  </Tooltip>
                ) : (
                  <ConfirmDelete run={() => lockDelete(l.id)} onDone={reload} />
                )}
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
