import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCodes } from '../../../api/useCodes';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { LEAVE_STATES, leaveColour, leaveDelete, leaveExport, leavePage, type Leave, type LeaveQuery } from '../../../api/staff';
import { DecideModal } from './DecideModal';
import { LeaveForm } from './LeaveForm';

type Filters = Omit<LeaveQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;
type Dialog = { kind: 'edit'; leave: Leave | null } | { kind: 'decide'; leave: Leave };

/** 请假记录 (basedata/leaveRecord, 03-18): leave requests and their approval; approved leave keeps a person off waybills. */
export default function LeaveRecordPage() {
  const { t } = useTranslation();
  const kinds = useCodes('leaveKind');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  return (
    <ListPage<Leave, Filters>
      queryKey="leaveRecord"
      rowKey="id"
      fetch={(q) => leavePage(q as LeaveQuery)}
      exportCode="export"
      exportRequest={leaveExport}
      filters={
        <>
          <Form.Item name="keyword" label={t('staff.employee')}>
            <Input allowClear style={{ width: 160 }} placeholder={t('staff.keywordHint2')} />
          </Form.Item>
          <Form.Item name="kind" label={t('staff.leaveKind')}>
            <Select allowClear style={{ width: 130 }} placeholder={t('common.all')} options={kinds.all()} loading={kinds.loading} data-testid="leave-kind-filter" />
          </Form.Item>
          <Form.Item name="state" label={t('staff.leaveState')}>
            <Select allowClear style={{ width: 110 }} placeholder={t('common.all')} options={LEAVE_STATES.map((s) => ({ value: s, label: t(`staff.leaveStateName.${s}`) }))} />
          </Form.Item>
          <Form.Item name="groupId" label={t('staff.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'edit', leave: null })}>
              {t('staff.leaveAddTitle')}
            </Button>
          </AuthButton>
          {dialog?.kind === 'edit' && <LeaveForm leave={dialog.leave} onClose={() => setDialog(null)} onSaved={() => (setDialog(null), reload())} />}
          {dialog?.kind === 'decide' && <DecideModal leave={dialog.leave} onClose={() => setDialog(null)} onDone={() => (setDialog(null), reload())} />}
        </>
      )}
      tableProps={{ scroll: { x: 1400 }, locale: { emptyText: t('staff.leaveEmpty') } }}
      columns={({ reload }) => [
        { title: t('staff.name'), dataIndex: 'employeeName', key: 'employeeName', sorter: true, width: 100, fixed: 'left' },
        { title: t('staff.phone'), dataIndex: 'phone', key: 'phone', width: 120 },
        { title: t('staff.leaveKind'), dataIndex: 'kind', key: 'kind', sorter: true, width: 120, render: (k: string) => kinds.label(k) },
        { title: t('staff.leaveFrom'), dataIndex: 'from', key: 'from', sorter: true, width: 110 },
        { title: t('staff.leaveTo'), dataIndex: 'to', key: 'to', sorter: true, width: 110 },
        { title: t('staff.leaveDays'), dataIndex: 'days', key: 'days', width: 70, align: 'right' },
        { title: t('staff.leaveReason'), dataIndex: 'reason', key: 'reason', width: 200, ellipsis: true, render: (v: string) => v || '—' },
        {
          title: t('staff.leaveState'),
          dataIndex: 'state',
          key: 'state',
          sorter: true,
          width: 130,
          render: (s: number, l) => (
            <Space size={4}>
              <Tag color={leaveColour(s)}>{t(`staff.leaveStateName.${s}`)}</Tag>
              {l.current && <Tag color="blue">{t('staff.onLeaveNow')}</Tag>}
            </Space>
          ),
        },
        {
          title: t('staff.decidedBy'),
          dataIndex: 'decidedBy',
          key: 'decidedAt',
          sorter: true,
          width: 230,
          render: (v: string, l) => (v ? <span style={{ whiteSpace: 'nowrap' }}>{`${v} · ${l.decidedAt}`}</span> : '—'),
        },
        { title: t('staff.leaveComment'), dataIndex: 'comment', key: 'comment', width: 160, ellipsis: true, render: (v: string) => v || '—' },
        { title: t('staff.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 110, ellipsis: true },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 170,
          render: (_, l) => (
            <Space size={0}>
              {l.state === 1 && (
                <AuthButton code="approve">
                  <Button type="link" size="small" onClick={() => setDialog({ kind: 'decide', leave: l })} data-testid="leave-decide">
                    {t('staff.decide')}
                  </Button>
                </AuthButton>
              )}
              {l.state === 1 && (
                <AuthButton code="edit">
                  <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', leave: l })}>
                    {t('common.edit')}
                  </Button>
                </AuthButton>
              )}
              <AuthButton code="delete">
                <ConfirmDelete run={() => leaveDelete(l.id)} onDone={reload} />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
