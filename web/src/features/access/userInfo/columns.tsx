import { Button, Space, Switch, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../api/types';
import { deleteUsers } from '../../../api/user';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';

export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return status === 1 ? <Tag color="success">{t('userInfo.enabled')}</Tag> : <Tag color="default">{t('userInfo.disabled')}</Tag>;
}

export interface UserActions {
  reload: () => void;
  canStatus: boolean;
  onEdit: (u: User) => void;
  onDetail: (u: User) => void;
  onResetPassword: (u: User) => void;
  onToggleStatus: (u: User) => void;
  onUnlock: (u: User) => void;
}

const muted = (v: string | null | undefined) => v || <span className="tw-muted">—</span>;

export function userColumns(t: TFunction, a: UserActions): ColumnsType<User> {
  return [
    { title: t('userInfo.name'), dataIndex: 'name', key: 'name', sorter: true, width: 130, ellipsis: true, fixed: 'left' },
    { title: t('userInfo.nickName'), dataIndex: 'nickName', key: 'nickName', sorter: true, width: 120, ellipsis: true, render: muted },
    { title: t('userInfo.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 140, ellipsis: true, render: muted },
    {
      title: t('userInfo.roles'),
      dataIndex: 'roleNames',
      key: 'roleNames',
      width: 160,
      render: (names: string[] | null) =>
        names?.length ? (
          <Space size={[4, 4]} wrap>
            {names.map((n) => (
              <Tag key={n} color="blue" style={{ marginInlineEnd: 0 }}>
                {n}
              </Tag>
            ))}
          </Space>
        ) : (
          muted('')
        ),
    },
    {
      title: t('userInfo.status'),
      dataIndex: 'status',
      key: 'status',
      sorter: true,
      width: 130,
      render: (s: number, u) => (
        <Space size={4} wrap>
          {a.canStatus ? (
          <Switch
            size="small"
            checked={s === 1}
            aria-label={t('menu.userInfo-status')}
            checkedChildren={t('userInfo.enabled')}
            unCheckedChildren={t('userInfo.disabled')}
            onClick={(_checked, e) => {
              e.stopPropagation();
              a.onToggleStatus(u);
            }}
          />
          ) : (
            <StatusTag status={s} />
          )}
          {u.locked && (
            <Tooltip title={t('userInfo.lockedHint')}>
              <Tag color="warning" style={{ marginInlineEnd: 0 }}>
                {t('userInfo.locked')}
              </Tag>
            </Tooltip>
          )}
          {u.locked && (
            <AuthButton code="edit">
              <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => a.onUnlock(u)}>
                {t('userInfo.unlock')}
              </Button>
            </AuthButton>
          )}
        </Space>
      ),
    },
    { title: t('userInfo.phone'), dataIndex: 'phone', key: 'phone', width: 125, render: muted },
    { title: t('userInfo.email'), dataIndex: 'email', key: 'email', width: 180, ellipsis: true, render: muted },
    { title: t('userInfo.lastLoginAt'), dataIndex: 'lastLoginAt', key: 'lastLoginAt', sorter: true, width: 175, render: muted },
    { title: t('userInfo.createdAt'), dataIndex: 'createdAt', key: 'createdAt', sorter: true, width: 175 },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      // English labels are the longest (Edit, Details, Reset password, Delete): wide enough for them on one
      // line, and they wrap rather than clip when a button is added
      width: 300,
      render: (_, u) => (
        <Space size={0} wrap>
          <AuthButton code="edit">
            <Button type="link" size="small" onClick={() => a.onEdit(u)}>
              {t('menu.userInfo-edit')}
            </Button>
          </AuthButton>
          <AuthButton code="detail">
            <Button type="link" size="small" onClick={() => a.onDetail(u)}>
              {t('menu.userInfo-detail')}
            </Button>
          </AuthButton>
          <AuthButton code="resetPassword">
            <Tooltip title={t('userInfo.resetHint')}>
              <Button type="link" size="small" onClick={() => a.onResetPassword(u)}>
                {t('menu.userInfo-resetPassword')}
              </Button>
            </Tooltip>
          </AuthButton>
          <AuthButton code="delete">
            <ConfirmDelete run={() => deleteUsers([u.id])} onDone={a.reload} />
          </AuthButton>
        </Space>
      ),
    },
  ];
}
