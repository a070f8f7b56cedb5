import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteSims, pageSims, type Sim, type SimQuery } from '../../../api/fleet';
import { AuthButton } from '../../../components/AuthButton';
import { GroupSelect } from '../../../components/GroupSelect';
import { BatchDeleteButton } from '../../../components/BatchDeleteButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { ListPage } from '../../../components/ListPage';
import { OPERATORS, SimForm } from './SimForm';

type SimFilters = Omit<SimQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

const muted = (v: string | null | undefined) => v || <span className="tw-muted">—</span>;

/** SIM卡管理: filter, page, add/edit, delete, export. */
export default function SimInfoPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ sim: Sim | null } | null>(null);

  return (
    <ListPage<Sim, SimFilters>
      queryKey="simInfoVXE"
      rowKey="id"
      fetch={pageSims}
      selectable
      tableProps={{ scroll: { x: 1250 } }}
      exportRequest={(f) => ({ url: '/base-info-app/simInfo/export', method: 'POST', data: f })}
      filters={
        <>
          <Form.Item name="iccid" label={t('simInfo.iccid')}>
            <Input allowClear style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="msisdn" label={t('simInfo.msisdn')}>
            <Input allowClear style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="operator" label={t('simInfo.operator')}>
            <Select allowClear style={{ width: 110 }} placeholder={t('simInfo.all')} options={OPERATORS.map((o) => ({ value: o, label: t(`simInfo.${o}`) }))} />
          </Form.Item>
          <Form.Item name="groupId" label={t('simInfo.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload, selectedRowKeys, clearSelection }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ sim: null })}>
              {t('simInfo.addTitle')}
            </Button>
          </AuthButton>
          <BatchDeleteButton ids={selectedRowKeys} remove={deleteSims} onDone={() => { clearSelection(); reload(); }} />
          {editing && (
            <SimForm
              sim={editing.sim}
              onClose={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                reload();
              }}
            />
          )}
        </>
      )}
      columns={({ reload }) => [
        { title: t('simInfo.iccid'), dataIndex: 'iccid', key: 'iccid', sorter: true, width: 200, fixed: 'left' },
        { title: t('simInfo.msisdn'), dataIndex: 'msisdn', key: 'msisdn', sorter: true, width: 140 },
        {
          title: t('simInfo.operator'),
          dataIndex: 'operator',
          key: 'operator',
          sorter: true,
          width: 120,
          render: (v: string) => ((OPERATORS as readonly string[]).includes(v) ? t(`simInfo.${v}`) : muted('')),
        },
        { title: t('simInfo.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 140, ellipsis: true },
        {
          title: t('simInfo.status'),
          dataIndex: 'status',
          key: 'status',
          sorter: true,
          width: 80,
          render: (v: number) => (v === 1 ? <Tag color="success">{t('simInfo.enabled')}</Tag> : <Tag>{t('simInfo.disabled')}</Tag>),
        },
        { title: t('simInfo.expireAt'), dataIndex: 'expireAt', key: 'expireAt', sorter: true, width: 120, render: (v: string | null) => muted(v?.slice(0, 10)) },
        { title: t('simInfo.terminal'), dataIndex: 'terminalPhone', key: 'terminalPhone', width: 140, render: muted },
        { title: t('simInfo.createdAt'), dataIndex: 'createdAt', key: 'createdAt', sorter: true, width: 170 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 130,
          render: (_, s) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing({ sim: s })}>
                  {t('menu.simInfoVXE-edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                <ConfirmDelete run={() => deleteSims([s.id])} onDone={reload} />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
