import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { templateDelete, templateKinds, templatePage, templateReset, type NoticeTemplate, type TemplateQuery } from '../../../api/notices';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { TemplateForm } from './TemplateForm';

type Filters = Omit<TemplateQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;
const LANGS = ['zh-CN', 'zh-TW', 'en-US'];

/** 模板设置 (access/editTemp, 06-12): the texts the system sends — the dispatch text to terminals and the console's pushes. */
export default function EditTempPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const kinds = useQuery({ queryKey: ['templateKinds'], queryFn: templateKinds, staleTime: Infinity });
  const [editing, setEditing] = useState<NoticeTemplate | 'new' | null>(null);
  const reset = (tpl: NoticeTemplate, reload: () => void) =>
    modal.confirm({
      title: t('notices.resetTitle'),
      content: t('notices.resetConfirm', { kind: tpl.kindName, lang: t(`notices.langName.${tpl.lang}`) }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await templateReset({ groupId: 0, kind: tpl.kind, lang: tpl.lang });
        void message.success(t('common.operationSuccess'));
        reload();
      },
    });
  return (
    <ListPage<NoticeTemplate, Filters>
      queryKey="editTemp"
      rowKey="id"
      fetch={(q) => templatePage(q as TemplateQuery)}
      filters={
        <>
          <Form.Item name="kind" label={t('notices.kind')}>
            <Select allowClear style={{ width: 160 }} placeholder={t('common.all')} options={(kinds.data ?? []).map((k) => ({ value: k.name, label: k.title }))} />
          </Form.Item>
          <Form.Item name="lang" label={t('notices.lang')}>
            <Select allowClear style={{ width: 120 }} placeholder={t('common.all')} options={LANGS.map((l) => ({ value: l, label: t(`notices.langName.${l}`) }))} />
          </Form.Item>
          <Form.Item name="groupId" label={t('notices.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} disabled={!kinds.data}>
              {t('notices.add')}
            </Button>
          </AuthButton>
          <Typography.Text type="secondary">{t('notices.pageHint')}</Typography.Text>
          {editing && kinds.data && <TemplateForm template={editing === 'new' ? undefined : editing} kinds={kinds.data} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), reload())} />}
        </>
      )}
      tableProps={{ scroll: { x: 1340 }, locale: { emptyText: t('notices.empty') } }}
      columns={({ reload }) => [
        {
          title: t('notices.kind'),
          dataIndex: 'kind',
          key: 'kind',
          sorter: true,
          width: 190,
          render: (_, r) => (
            <Space size={4}>
              <span>{r.kindName}</span>
              <Tag color={r.channel === 'terminal' ? 'geekblue' : 'cyan'}>{t(`notices.channel.${r.channel}`)}</Tag>
            </Space>
          ),
        },
        { title: t('notices.lang'), dataIndex: 'lang', key: 'lang', sorter: true, width: 100, render: (l: string) => t(`notices.langName.${l}`) },
        {
          title: t('notices.scope'),
          dataIndex: 'groupName',
          key: 'groupName',
          sorter: true,
          width: 130,
          render: (_, r) => (r.groupId ? r.groupName : <Tag>{t('notices.platformWide')}</Tag>),
        },
        {
          title: t('notices.body'),
          dataIndex: 'body',
          key: 'body',
          width: 380,
          ellipsis: { showTitle: false },
          render: (b: string) => (
            <Tooltip title={<span style={{ whiteSpace: 'pre-wrap' }}>{b}</span>}>
              <span>{b.replace(/\n/g, ' ⏎ ')}</span>
            </Tooltip>
          ),
        },
        {
          title: t('notices.status'),
          key: 'status',
          width: 110,
          render: (_, r) => (r.builtin ? r.body === r.default ? <Tag>{t('notices.builtin')}</Tag> : <Tag color="orange">{t('notices.modified')}</Tag> : <Tag color="blue">{t('notices.own')}</Tag>),
        },
        { title: t('notices.updatedBy'), dataIndex: 'updatedBy', key: 'updatedBy', width: 100, render: (v: string) => v || '—' },
        { title: t('notices.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 165 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 160,
          render: (_, r) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing(r)}>
                  {t('common.edit')}
                </Button>
              </AuthButton>
              {r.builtin && r.body !== r.default && (
                <AuthButton code="edit">
                  <Button type="link" size="small" onClick={() => reset(r, reload)}>
                    {t('notices.reset')}
                  </Button>
                </AuthButton>
              )}
              {!r.builtin && (
                <AuthButton code="delete">
                  <ConfirmDelete run={() => templateDelete({ groupId: r.groupId, kind: r.kind, lang: r.lang })} onDone={reload} />
                </AuthButton>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
