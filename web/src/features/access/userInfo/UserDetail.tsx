import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Empty, Skeleton, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../api/types';
import { userDetail } from '../../../api/user';
import { StatusTag } from './columns';

/** Detail drawer: GET userInfo/detail, all fields. */
export function UserDetail({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['userDetail', id], queryFn: () => userDetail(id!), enabled: id != null });
  const u: User | undefined = q.data;
  const dash = (v: string | null | undefined) => (v ? v : <span className="tw-muted">—</span>);
  return (
    <Drawer open={id != null} onClose={onClose} title={t('userInfo.detailTitle')} width={520} destroyOnHidden>
      {q.isLoading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : !u ? (
        <Empty description={t('common.empty')} />
      ) : (
        <Descriptions column={1} bordered size="small" labelStyle={{ width: 140 }}>
          <Descriptions.Item label={t('userInfo.name')}>{u.name}</Descriptions.Item>
          <Descriptions.Item label={t('userInfo.nickName')}>{dash(u.nickName)}</Descriptions.Item>
          <Descriptions.Item label={t('userInfo.group')}>{dash(u.groupName)}</Descriptions.Item>
          <Descriptions.Item label={t('userInfo.roles')}>
            {u.roleNames?.length ? (
              <Space size={[4, 4]} wrap>
                {u.roleNames.map((r) => (
                  <Tag key={r} color="blue">
                    {r}
                  </Tag>
                ))}
              </Space>
            ) : (
              dash('')
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('userInfo.phone')}>{dash(u.phone)}</Descriptions.Item>
          <Descriptions.Item label={t('userInfo.email')}>{dash(u.email)}</Descriptions.Item>
          <Descriptions.Item label={t('userInfo.status')}>
            <StatusTag status={u.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('userInfo.platform')}>{t(u.platform ? 'common.yes' : 'common.no')}</Descriptions.Item>
          <Descriptions.Item label={t('userInfo.expireAt')}>{u.expireAt ? u.expireAt.slice(0, 10) : t('userInfo.never')}</Descriptions.Item>
          <Descriptions.Item label={t('userInfo.lastLoginAt')}>{dash(u.lastLoginAt)}</Descriptions.Item>
          <Descriptions.Item label={t('userInfo.createdAt')}>{dash(u.createdAt)}</Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
