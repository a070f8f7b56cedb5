import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteRoles, pageRoles, type RoleQuery } from '../../../api/role';
import type { Role } from '../../../api/types';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { ListPage } from '../../../components/ListPage';
import { RoleForm } from './RoleForm';

type RoleFilters = Omit<RoleQuery, 'pageNum' | 'pageSize'>;
const muted = (v: string | null | undefined) => v || <span className="tw-muted">—</span>;

/** 角色管理: list with name filter; add/edit with the grantable permission tree; delete. */
export default function RoleInfoPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ role: Role | null } | null>(null);

  return (
    <ListPage<Role, RoleFilters>
      queryKey="roleInfo"
      rowKey="id"
      fetch={pageRoles}
      filters={
        <Form.Item name="name" label={t('roleInfo.name')}>
          <Input allowClear style={{ width: 200 }} />
        </Form.Item>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ role: null })}>
              {t('roleInfo.addTitle')}
            </Button>
          </AuthButton>
          {editing && (
            <RoleForm
              role={editing.role}
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
        { title: t('roleInfo.name'), dataIndex: 'name', key: 'name', width: 200, ellipsis: true, render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
        { title: t('roleInfo.group'), dataIndex: 'groupName', key: 'groupName', width: 200, ellipsis: true, render: muted },
        { title: t('roleInfo.remark'), dataIndex: 'remark', key: 'remark', ellipsis: true, render: muted },
        { title: t('roleInfo.userCount'), dataIndex: 'userCount', key: 'userCount', width: 110, align: 'right' },
        { title: t('roleInfo.createdAt'), dataIndex: 'createdAt', key: 'createdAt', width: 180 },
        {
          title: t('common.actions'),
          key: 'actions',
          width: 150,
          render: (_, r) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing({ role: r })}>
                  {t('menu.roleInfo-edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                <ConfirmDelete run={() => deleteRoles([r.id])} onDone={reload} />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
