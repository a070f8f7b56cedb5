import { CloudUploadOutlined, SendOutlined } from '@ant-design/icons';
import { Button, Form, Input, Progress, Select, Space, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import {
  anyActive,
  canRetry,
  jobPage,
  jobRetry,
  KINDS,
  packageDelete,
  packagePage,
  progressPct,
  pushExport,
  pushPage,
  sizeText,
  stateKey,
  STATUSES,
  type Job,
  type JobQuery,
  type PackageQuery,
  type Push,
  type PushQuery,
  type UpgradePackage,
} from './api';
import { PushModal } from './PushModal';
import { UploadModal } from './UploadModal';

type Filters<Q> = Omit<Q, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

const stateColour: Record<string, string> = {
  'status.1': 'default',
  'status.2': 'processing',
  'status.3': 'cyan',
  'status.5': 'error',
  'result.0': 'success',
  'result.1': 'error',
  'result.2': 'warning',
};

/** Reloads the list every 2 s while active (the jobs move on the server). */
function AutoReload({ reload, active }: { reload: () => void; active: boolean }) {
  useEffect(() => {
    if (!active) return;
    const id = window.setInterval(reload, 2000);
    return () => window.clearInterval(id);
  }, [reload, active]);
  return null;
}

function Packages({ onPushed }: { onPushed: () => void }) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<{ kind: 'upload' } | { kind: 'push'; pkg: UpgradePackage } | null>(null);
  return (
    <ListPage<UpgradePackage, Filters<PackageQuery>>
      queryKey="upgradePack"
      rowKey="id"
      fetch={(q) => packagePage(q as PackageQuery)}
      filters={
        <>
          <Form.Item name="kind" label={t('firmware.kind')}>
            <Select allowClear style={{ width: 190 }} placeholder={t('common.all')} options={KINDS.map((k) => ({ value: k, label: t(`firmware.kindName.${k}`) }))} />
          </Form.Item>
          <Form.Item name="manufacturer" label={t('firmware.manufacturer')}>
            <Input allowClear style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="version" label={t('firmware.version')}>
            <Input allowClear style={{ width: 150 }} />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => setDialog({ kind: 'upload' })}>
              {t('firmware.upload')}
            </Button>
          </AuthButton>
          <Typography.Text type="secondary">{t('firmware.platformHint')}</Typography.Text>
          {dialog?.kind === 'upload' && <UploadModal onClose={() => setDialog(null)} onSaved={() => (setDialog(null), reload())} />}
          {dialog?.kind === 'push' && <PushModal pkg={dialog.pkg} onClose={() => setDialog(null)} onSaved={() => (setDialog(null), reload(), onPushed())} />}
        </>
      )}
      tableProps={{ locale: { emptyText: t('firmware.emptyPackages') } }}
      columns={({ reload }) => [
        { title: t('firmware.kind'), dataIndex: 'kind', key: 'kind', sorter: true, width: 170, render: (k: number) => <Tag color="blue">{t(`firmware.kindName.${k}`)}</Tag> },
        { title: t('firmware.manufacturer'), dataIndex: 'manufacturer', key: 'manufacturer', sorter: true, width: 110 },
        { title: t('firmware.version'), dataIndex: 'version', key: 'version', sorter: true, width: 150 },
        { title: t('firmware.fileName'), dataIndex: 'fileName', key: 'fileName', sorter: true, width: 170, ellipsis: true },
        { title: t('firmware.size'), dataIndex: 'size', key: 'size', sorter: true, width: 100, align: 'right', render: sizeText },
        {
          title: t('firmware.checksum'),
          key: 'sha256',
          width: 250,
          render: (_, p) => (
            <Tooltip title={<span style={{ wordBreak: 'break-all' }}>SHA-256 {p.sha256}<br />MD5 {p.md5}</span>}>
              <Typography.Text copyable={{ text: p.sha256 }} style={{ fontFamily: 'monospace', fontSize: 12 }}>
                {p.sha256.slice(0, 16)}…
              </Typography.Text>
            </Tooltip>
          ),
        },
        { title: t('firmware.remark'), dataIndex: 'remark', key: 'remark', width: 200, ellipsis: true, render: (v: string) => v || '—' },
        { title: t('firmware.createdAt'), dataIndex: 'createdAt', key: 'createdAt', sorter: true, width: 160 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 170,
          render: (_, p) => (
            <Space size={0}>
              <AuthButton code="push">
                <Button type="link" size="small" icon={<SendOutlined />} onClick={() => setDialog({ kind: 'push', pkg: p })}>
                  {t('firmware.push')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                {p.busy > 0 ? (
                  <Tooltip title={t('firmware.deleteBusy', { n: p.busy })}>
                    <Button type="link" size="small" danger disabled>
                      {t('common.delete')}
                    </Button>
                  </Tooltip>
                ) : (
                  <ConfirmDelete run={() => packageDelete(p.id)} onDone={reload} />
                )}
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}

function Jobs() {
  const { t } = useTranslation();
  const [active, setActive] = useState(false);
  return (
    <ListPage<Job, Filters<JobQuery>>
      queryKey="upgradeJobs"
      rowKey="id"
      fetch={async (q) => {
        const page = await jobPage(q as JobQuery);
        setActive(anyActive(page.list));
        return page;
      }}
      filters={
        <>
          <Form.Item name="plate" label={t('firmware.plate')}>
            <Input allowClear style={{ width: 130 }} />
          </Form.Item>
          <Form.Item name="status" label={t('firmware.state')}>
            <Select allowClear style={{ width: 130 }} placeholder={t('common.all')} options={STATUSES.map((s) => ({ value: s, label: t(`firmware.status.${s}`) }))} />
          </Form.Item>
          <Form.Item name="groupId" label={t('firmware.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <AutoReload reload={reload} active={active} />
          <Typography.Text type="secondary">{t(active ? 'firmware.liveHint' : 'firmware.jobsHint')}</Typography.Text>
        </>
      )}
      tableProps={{ locale: { emptyText: t('firmware.emptyJobs') } }}
      columns={({ reload }) => [
        { title: t('firmware.plate'), dataIndex: 'plate', key: 'plate', sorter: true, width: 120, fixed: 'left', render: (v: string) => v || '—' },
        { title: t('firmware.phone'), dataIndex: 'phone', key: 'phone', width: 150 },
        { title: t('firmware.version'), key: 'version', sorter: true, width: 200, render: (_, j) => `${t(`firmware.kindName.${j.kind}`)} ${j.version}` },
        {
          title: t('firmware.state'),
          key: 'status',
          sorter: true,
          width: 150,
          render: (_, j) => {
            const k = stateKey(j);
            const tag = <Tag color={stateColour[k]} data-testid="job-state">{t(`firmware.${k}`)}</Tag>;
            return j.reason ? <Tooltip title={t(`firmware.reason.${j.reason}`)}>{tag}</Tooltip> : tag;
          },
        },
        {
          title: t('firmware.progress'),
          key: 'progress',
          width: 220,
          render: (_, j) => (
            <Space size={6}>
              <Progress percent={progressPct(j)} size="small" style={{ width: 110, margin: 0 }} status={j.status === 5 ? 'exception' : undefined} />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {j.total ? `${j.acked}/${j.total}` : ''}
              </Typography.Text>
            </Space>
          ),
        },
        { title: t('firmware.reasonTitle'), dataIndex: 'reason', key: 'reason', width: 200, ellipsis: true, render: (r: string) => (r ? t(`firmware.reason.${r}`) : '—') },
        { title: t('firmware.attempts'), dataIndex: 'attempts', key: 'attempts', sorter: true, width: 120, align: 'right' },
        { title: t('firmware.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 130, ellipsis: true },
        { title: t('firmware.pushedBy'), dataIndex: 'pushedBy', key: 'pushedBy', width: 110 },
        { title: t('firmware.pushedAt'), dataIndex: 'pushedAt', key: 'pushedAt', sorter: true, width: 160 },
        { title: t('firmware.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 160 },
        { title: t('firmware.expiresAt'), dataIndex: 'expiresAt', key: 'expiresAt', width: 160 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 90,
          render: (_, j) =>
            canRetry(j) ? (
              <AuthButton code="retry">
                <Button type="link" size="small" onClick={() => void jobRetry(j.carId, j.packageId).then(reload, () => undefined)}>
                  {t('firmware.retry')}
                </Button>
              </AuthButton>
            ) : null,
        },
      ]}
    />
  );
}

function History() {
  const { t } = useTranslation();
  return (
    <ListPage<Push, Filters<PushQuery>>
      queryKey="upgradePushes"
      rowKey="id"
      fetch={(q) => pushPage(q as PushQuery)}
      exportRequest={pushExport}
      exportAlways
      filters={
        <>
          <Form.Item name="version" label={t('firmware.version')}>
            <Input allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="groupId" label={t('firmware.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      tableProps={{ locale: { emptyText: t('firmware.emptyPushes') } }}
      columns={[
        { title: t('firmware.pushedAt'), dataIndex: 'createdAt', key: 'createdAt', sorter: true, width: 160 },
        { title: t('firmware.version'), key: 'version', sorter: true, width: 220, render: (_, p) => `${t(`firmware.kindName.${p.kind}`)} ${p.version}` },
        { title: t('firmware.manufacturer'), dataIndex: 'manufacturer', key: 'manufacturer', width: 110 },
        { title: t('firmware.pushedBy'), dataIndex: 'userName', key: 'userName', sorter: true, width: 110 },
        { title: t('firmware.group'), dataIndex: 'groupName', key: 'groupName', width: 140 },
        { title: t('firmware.terminals'), dataIndex: 'terminals', key: 'terminals', sorter: true, width: 110, align: 'right' },
        { title: t('firmware.done'), dataIndex: 'done', key: 'done', width: 110, align: 'right' },
        { title: t('firmware.failed'), dataIndex: 'failed', key: 'failed', width: 100, align: 'right' },
        { title: t('firmware.expiresAt'), dataIndex: 'expiresAt', key: 'expiresAt', width: 160 },
      ]}
    />
  );
}

/** 升级包 (access/upgradePack, 06-10): firmware packages, their push to terminals over 0x8108 and the per-terminal progress. */
export default function UpgradePackPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState('packages');
  return (
    <Tabs
      activeKey={tab}
      onChange={setTab}
      destroyOnHidden
      tabBarStyle={{ padding: '0 16px', marginBottom: 0 }}
      items={[
        { key: 'packages', label: t('firmware.tabPackages'), children: <Packages onPushed={() => setTab('jobs')} /> },
        { key: 'jobs', label: t('firmware.tabJobs'), children: <Jobs /> },
        { key: 'history', label: t('firmware.tabHistory'), children: <History /> },
      ]}
    />
  );
}
