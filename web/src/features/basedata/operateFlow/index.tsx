import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { FLOW_KINDS, flowDelete, flowPage, type Flow } from '../../../api/staff';
import { FlowForm } from './FlowForm';

type Filters = { name?: string; kind?: number; groupId?: number };

/** The steps of a procedure, numbered, each with the duty that signs it. */
function StepsList({ flow }: { flow: Flow }) {
  const { t } = useTranslation();
  return (
    <ol style={{ margin: 0, paddingLeft: 20 }}>
      {flow.steps.map((s) => (
        <li key={s.seq}>
          {s.text}
          {s.dutyName && <span className="tw-muted">{` — ${t('staff.signedByName', { name: s.dutyName })}`}</span>}
        </li>
      ))}
    </ol>
  );
}

/** 作业规程 (basedata/operateFlow, 03-20): the loading and unloading procedures, their steps and where they apply. */
export default function OperateFlowPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ flow: Flow | null } | null>(null);
  return (
    <ListPage<Flow, Filters>
      queryKey="operateFlow"
      rowKey="id"
      fetch={(q) => flowPage(q)}
      filters={
        <>
          <Form.Item name="name" label={t('staff.flowName')}>
            <Input allowClear style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="kind" label={t('staff.flowKind')}>
            <Select allowClear style={{ width: 110 }} placeholder={t('common.all')} options={FLOW_KINDS.map((k) => ({ value: k, label: t(`staff.flowKindName.${k}`) }))} />
          </Form.Item>
          <Form.Item name="groupId" label={t('staff.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ flow: null })}>
              {t('staff.flowAddTitle')}
            </Button>
          </AuthButton>
          {editing && <FlowForm flow={editing.flow} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), reload())} />}
        </>
      )}
      tableProps={{
        scroll: { x: 1300 },
        locale: { emptyText: t('staff.flowEmpty') },
        expandable: { expandedRowRender: (f) => <StepsList flow={f} />, rowExpandable: (f) => f.steps.length > 0 },
      }}
      columns={({ reload }) => [
        { title: t('staff.flowName'), dataIndex: 'name', key: 'name', sorter: true, width: 180, fixed: 'left' },
        {
          title: t('staff.flowKind'),
          dataIndex: 'kind',
          key: 'kind',
          sorter: true,
          width: 90,
          render: (k: number) => <Tag color={k === 1 ? 'blue' : 'purple'}>{t(`staff.flowKindName.${k}`)}</Tag>,
        },
        {
          title: t('staff.steps'),
          dataIndex: 'steps',
          key: 'steps',
          width: 280,
          ellipsis: { showTitle: false },
          render: (_, f) => (
            <Tooltip title={<StepsList flow={f} />}>
              {t('staff.stepsN', { n: f.steps.length })}: {f.steps.map((s) => s.text).join(' → ')}
            </Tooltip>
          ),
        },
        {
          title: t('staff.stations'),
          dataIndex: 'stations',
          key: 'stations',
          width: 240,
          render: (v: Flow['stations']) => (v.length ? v.map((s) => <Tag key={s.id}>{s.name}</Tag>) : <span className="tw-muted">{t('staff.noStations')}</span>),
        },
        {
          title: t('staff.products'),
          dataIndex: 'products',
          key: 'products',
          width: 240,
          render: (v: Flow['products']) => (v.length ? v.map((p) => <Tag key={p.id}>{p.name}</Tag>) : <span className="tw-muted">{t('staff.noProducts')}</span>),
        },
        { title: t('staff.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 120, ellipsis: true },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 130,
          render: (_, f) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing({ flow: f })}>
                  {t('common.edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                <ConfirmDelete run={() => flowDelete(f.id)} onDone={reload} />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
