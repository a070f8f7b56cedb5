import { Button, Form, Input, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { carPasswordExport, pageCarPasswords, type CarPassword, type CarPasswordQuery, type SyncState } from '../../../api/carPassword';
import { AuthButton } from '../../../components/AuthButton';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { SetPasswordModal } from './SetPasswordModal';
import { ViewPasswordModal } from './ViewPasswordModal';

type Filters = Omit<CarPasswordQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

const SYNC_COLOURS: Record<SyncState, string> = { ok: 'success', pending: 'warning', failed: 'error' };

/** Vehicle passwords (menu carPassword): the offline unlock password of each vehicle's locks — set or generate it, resend it, view it (recorded). */
export default function CarPasswordPage() {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState<CarPassword | null>(null);
  const [setting, setSetting] = useState<{ car: CarPassword; resend: boolean } | null>(null);
  return (
    <ListPage<CarPassword, Filters>
      queryKey="carPassword"
      rowKey="carId"
      fetch={pageCarPasswords}
      exportRequest={carPasswordExport}
      tableProps={{ scroll: { x: 1160 } }}
      filters={
        <>
          <Form.Item name="groupId" label={t('carPassword.group')}>
            <GroupSelect filter />
          </Form.Item>
          <Form.Item name="plate" label={t('carPassword.plate')}>
            <Input allowClear style={{ width: 160 }} placeholder={t('common.all')} />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <Typography.Text type="secondary">{t('carPassword.hint')}</Typography.Text>
          {viewing && <ViewPasswordModal car={viewing} onClose={() => setViewing(null)} />}
          {setting && (
            <SetPasswordModal
              car={setting.car}
              resend={setting.resend}
              onClose={() => setSetting(null)}
              onSaved={reload}
            />
          )}
        </>
      )}
      columns={[
        { title: t('carPassword.plate'), dataIndex: 'plate', key: 'plate', width: 120, sorter: true },
        { title: t('carPassword.group'), dataIndex: 'groupName', key: 'groupName', width: 130, sorter: true, ellipsis: true },
        { title: t('carPassword.terminal'), dataIndex: 'terminalPhone', key: 'terminalPhone', width: 130, render: (v: string) => v || '—' },
        {
          title: t('carPassword.password'),
          dataIndex: 'passwordSet',
          key: 'passwordSet',
          width: 100,
          render: (set: boolean) => (set ? <span className="tw-masked" aria-label={t('carPassword.masked')}>●●●●●●</span> : <Tag>{t('carPassword.notSet')}</Tag>),
        },
        {
          title: t('carPassword.sync'),
          dataIndex: 'syncState',
          key: 'syncState',
          width: 170,
          render: (s: CarPassword['syncState'], r) =>
            s ? (
              // the time the terminal confirmed it, on hover: a column of its own would crowd the actions out
              <Tooltip title={r.syncedAt ? `${t('carPassword.syncedAt')}: ${r.syncedAt}` : undefined}>
                <Tag color={SYNC_COLOURS[s]} data-testid="sync-state">
                  {r.syncText}
                </Tag>
              </Tooltip>
            ) : (
              '—'
            ),
        },
        { title: t('carPassword.setBy'), dataIndex: 'setBy', key: 'setBy', width: 90, render: (v: string) => v || '—' },
        { title: t('carPassword.setAt'), dataIndex: 'setAt', key: 'setAt', width: 160, render: (v: string | null) => v ?? '—' },
        {
          title: t('common.actions'),
          key: 'actions',
          width: 260,
          fixed: 'right',
          render: (_, r) => (
            <Space size={0} wrap>
              {r.passwordSet && (
                <AuthButton code="view">
                  <Button type="link" size="small" onClick={() => setViewing(r)}>
                    {t('carPassword.view')}
                  </Button>
                </AuthButton>
              )}
              <AuthButton code="set">
                <Button type="link" size="small" onClick={() => setSetting({ car: r, resend: false })}>
                  {r.passwordSet ? t('carPassword.reset') : t('carPassword.set')}
                </Button>
              </AuthButton>
              {r.passwordSet && r.syncState !== 'ok' && (
                <AuthButton code="set">
                  <Button type="link" size="small" onClick={() => setSetting({ car: r, resend: true })}>
                    {t('carPassword.resend')}
                  </Button>
                </AuthButton>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
