import { Button, Form, Input, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { App } from 'antd';
import { AuthButton } from '../../../components/AuthButton';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { clientName, sessionPage, sessionSignOut, type SessionQuery, type SessionRow } from '../../../api/settings';

type Filters = Omit<SessionQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** The sessions signed in now (an administrator: their scope's users), with sign-out. */
export function SessionsTab() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  return (
    <ListPage<SessionRow, Filters>
      queryKey="sessions"
      rowKey="id"
      fetch={(q) => sessionPage(q as SessionQuery)}
      filters={
        <>
          <Form.Item name="userName" label={t('settings.sessions.user')}>
            <Input allowClear style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="groupId" label={t('settings.sessions.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      tableProps={{ locale: { emptyText: t('settings.sessions.empty') } }}
      columns={({ reload }) => [
        {
          title: t('settings.sessions.user'),
          dataIndex: 'userName',
          key: 'userName',
          sorter: true,
          width: 180,
          render: (v: string, s) => (
            <>
              {s.nickName ? `${s.nickName} (${v})` : v} {s.current && <Tag color="blue">{t('settings.sessions.you')}</Tag>}
            </>
          ),
        },
        { title: t('settings.sessions.group'), dataIndex: 'groupName', key: 'groupName', width: 140, ellipsis: true },
        { title: t('settings.sessions.ip'), dataIndex: 'ip', key: 'ip', width: 140, render: (v: string) => v || '—' },
        { title: t('settings.sessions.client'), dataIndex: 'client', key: 'client', width: 170, render: (v: string) => <Tooltip title={v}>{clientName(v)}</Tooltip> },
        { title: t('settings.sessions.signedInAt'), dataIndex: 'signedInAt', key: 'signedInAt', sorter: true, width: 170 },
        { title: t('settings.sessions.lastSeenAt'), dataIndex: 'lastSeenAt', key: 'lastSeenAt', sorter: true, defaultSortOrder: 'descend', width: 170 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 110,
          render: (_, s) =>
            s.current ? (
              '—'
            ) : (
              <AuthButton code="signout">
                <Button
                  type="link"
                  size="small"
                  danger
                  data-testid={`signout-${s.userName}`}
                  onClick={() =>
                    modal.confirm({
                      title: t('settings.sessions.confirmTitle'),
                      content: t('settings.sessions.confirm', { user: s.nickName || s.userName }),
                      okButtonProps: { danger: true },
                      onOk: () =>
                        sessionSignOut(s.id).then(() => {
                          void message.success(t('settings.sessions.done'));
                          reload();
                        }),
                    })
                  }
                >
                  {t('settings.sessions.signOut')}
                </Button>
              </AuthButton>
            ),
        },
      ]}
    />
  );
}
