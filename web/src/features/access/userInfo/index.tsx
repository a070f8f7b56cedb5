import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../api/types';
import { deleteUsers, pageUsers, resetPassword, unlockUser, updateUserStatus, type UserQuery } from '../../../api/user';
import { AuthButton, useAuth } from '../../../components/AuthButton';
import { GroupSelect } from '../../../components/GroupSelect';
import { BatchDeleteButton } from '../../../components/BatchDeleteButton';
import { ListPage } from '../../../components/ListPage';
import { userColumns } from './columns';
import { UserDetail } from './UserDetail';
import { UserForm } from './UserForm';

type UserFilters = Omit<UserQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** 用户管理: filter, page, add/edit, detail, reset password, enable/disable, delete (single and batch). */
export default function UserInfoPage() {
  const { t } = useTranslation();
  const api = App.useApp();
  const canStatus = useAuth('status');
  const [editing, setEditing] = useState<{ user: User | null } | null>(null);
  const [detailId, setDetailId] = useState<number | null>(null);

  const doResetPassword = (u: User, reload: () => void) => {
    api.modal.confirm({
      title: t('menu.userInfo-resetPassword'),
      content: t('userInfo.resetConfirm', { name: u.name }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const { password } = await resetPassword(u.id);
          reload();
          api.modal.success({
            title: t('userInfo.resetDone', { name: u.name }),
            width: 460,
            okText: t('common.close'),
            content: (
              <div>
                <Typography.Paragraph type="secondary">{t('userInfo.resetShownOnce')}</Typography.Paragraph>
                <Typography.Paragraph
                  code
                  copyable={{ text: password, tooltips: [t('userInfo.copy'), t('userInfo.copied')] }}
                  style={{ fontSize: 18, marginBottom: 0 }}
                  data-testid="new-password"
                >
                  {password}
                </Typography.Paragraph>
              </div>
            ),
          });
        } catch {
          // server message already shown
        }
      },
    });
  };

  const doToggleStatus = (u: User, reload: () => void) => {
    const next = u.status === 1 ? 0 : 1;
    api.modal.confirm({
      title: t('menu.userInfo-status'),
      content: t(next === 0 ? 'userInfo.disableConfirm' : 'userInfo.enableConfirm', { name: u.name }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: next === 0 ? { danger: true } : undefined,
      onOk: async () => {
        try {
          await updateUserStatus(u.id, next);
          void api.message.success(t('common.operationSuccess'));
          reload();
        } catch {
          // server message (e.g. cannot disable yourself) already shown
        }
      },
    });
  };

  const doUnlock = (u: User, reload: () => void) => {
    api.modal.confirm({
      title: t('userInfo.unlock'),
      content: t('userInfo.unlockConfirm', { name: u.name }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await unlockUser(u.id);
          void api.message.success(t('common.operationSuccess'));
          reload();
        } catch {
          // server message already shown
        }
      },
    });
  };

  return (
    <>
      <ListPage<User, UserFilters>
        queryKey="userInfo"
        rowKey="id"
        fetch={pageUsers}
        selectable
        tableProps={{ scroll: { x: 1480 } }}
        filters={
          <>
            <Form.Item name="name" label={t('userInfo.name')}>
              <Input allowClear style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="nickName" label={t('userInfo.nickName')}>
              <Input allowClear style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="phone" label={t('userInfo.phone')}>
              <Input allowClear style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="groupId" label={t('userInfo.group')}>
              <GroupSelect filter />
            </Form.Item>
            <Form.Item name="status" label={t('userInfo.status')}>
              <Select
                allowClear
                style={{ width: 120 }}
                placeholder={t('userInfo.all')}
                options={[
                  { value: 1, label: t('userInfo.enabled') },
                  { value: 0, label: t('userInfo.disabled') },
                ]}
              />
            </Form.Item>
          </>
        }
        toolbar={({ reload, selectedRowKeys, clearSelection }) => (
          <>
            <AuthButton code="add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ user: null })}>
                {t('userInfo.addTitle')}
              </Button>
            </AuthButton>
            <BatchDeleteButton ids={selectedRowKeys} remove={deleteUsers} onDone={() => { clearSelection(); reload(); }}>
              {selectedRowKeys.length ? t('userInfo.batchDeleteN', { count: selectedRowKeys.length }) : t('userInfo.batchDelete')}
            </BatchDeleteButton>
            {editing && (
              <UserForm
                open
                user={editing.user}
                onClose={() => setEditing(null)}
                onSaved={() => {
                  setEditing(null);
                  reload();
                }}
              />
            )}
          </>
        )}
        columns={({ reload }) =>
          userColumns(t, {
            reload,
            canStatus,
            onEdit: (u) => setEditing({ user: u }),
            onDetail: (u) => setDetailId(u.id),
            onResetPassword: (u) => doResetPassword(u, reload),
            onToggleStatus: (u) => doToggleStatus(u, reload),
            onUnlock: (u) => doUnlock(u, reload),
          })
        }
      />
      <UserDetail id={detailId} onClose={() => setDetailId(null)} />
    </>
  );
}
