import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Select, Space, Tabs, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { ListPage } from '../../../components/ListPage';
import { CODE_TYPES, codeDelete, codePage, codeTypes, type CodeItem, type CodeQuery, type CodeType } from '../../../api/settings';
import { CodeForm } from './CodeForm';

type Filters = Omit<CodeQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder' | 'type'>;

export function toCodeFilters(v: Record<string, unknown>): Filters {
  const { enabled, ...rest } = v as { enabled?: string } & Filters;
  return { ...rest, ...(enabled ? { enabled: enabled === 'yes' } : {}) };
}

/** 基础类型 (access/baseType, 06-02): the code lists other pages read; platform administrators edit them. */
export default function BaseTypePage() {
  const { t } = useTranslation();
  const [type, setType] = useState<CodeType>('vehicleClass');
  const [dialog, setDialog] = useState<{ item: CodeItem | null } | null>(null);
  const counts = useQuery({ queryKey: ['codeTypes'], queryFn: codeTypes });
  const countOf = (ct: CodeType) => counts.data?.find((c) => c.type === ct)?.count;
  return (
    <div className="tw-page" data-testid="baseType-page">
      <Tabs
        activeKey={type}
        onChange={(k) => setType(k as CodeType)}
        items={CODE_TYPES.map((ct) => ({
          key: ct,
          label: (
            <span data-testid={`codeType-${ct}`}>
              {t(`settings.codes.type.${ct}`)}
              {countOf(ct) != null && <Tag style={{ marginInlineStart: 6 }}>{countOf(ct)}</Tag>}
            </span>
          ),
        }))}
      />
      <ListPage<CodeItem, Filters>
        key={type}
        queryKey={`baseType-${type}`}
        rowKey="id"
        fetch={(q) => codePage({ ...(q as CodeQuery), type })}
        toFilters={toCodeFilters}
        title={<span style={{ color: 'rgba(0,0,0,0.45)' }}>{t(`settings.codes.usedBy.${type}`)}</span>}
        filters={
          <>
            <Form.Item name="keyword" label={t('settings.codes.keyword')}>
              <Input allowClear style={{ width: 180 }} placeholder={t('settings.codes.keywordHint')} />
            </Form.Item>
            <Form.Item name="enabled" label={t('settings.codes.enabled')}>
              <Select
                allowClear
                style={{ width: 110 }}
                placeholder={t('common.all')}
                options={[
                  { value: 'yes', label: t('settings.codes.on') },
                  { value: 'no', label: t('settings.codes.off') },
                ]}
              />
            </Form.Item>
          </>
        }
        toolbar={({ reload }) => (
          <>
            <AuthButton code="add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ item: null })}>
                {t('settings.codes.add')}
              </Button>
            </AuthButton>
            {dialog && (
              <CodeForm
                type={type}
                item={dialog.item}
                onClose={() => setDialog(null)}
                onSaved={() => {
                  setDialog(null);
                  reload();
                  void counts.refetch();
                }}
              />
            )}
          </>
        )}
        tableProps={{ locale: { emptyText: t('settings.codes.empty') } }}
        columns={({ reload }) => [
          { title: t('settings.codes.code'), dataIndex: 'code', key: 'code', sorter: true, width: 160 },
          { title: t('settings.codes.labelZh'), dataIndex: 'labelZh', key: 'labelZh', sorter: true, width: 180 },
          { title: t('settings.codes.labelTw'), dataIndex: 'labelTw', key: 'labelTw', width: 180, render: (v: string) => v || '—' },
          { title: t('settings.codes.labelEn'), dataIndex: 'labelEn', key: 'labelEn', width: 200, render: (v: string) => v || '—' },
          { title: t('settings.codes.sort'), dataIndex: 'sort', key: 'sort', sorter: true, width: 90, align: 'right' },
          {
            title: t('settings.codes.enabled'),
            dataIndex: 'enabled',
            key: 'enabled',
            sorter: true,
            width: 90,
            render: (v: boolean) => <Tag color={v ? 'green' : 'default'}>{t(v ? 'settings.codes.on' : 'settings.codes.off')}</Tag>,
          },
          {
            title: t('settings.codes.source'),
            dataIndex: 'builtin',
            key: 'builtin',
            width: 100,
            render: (v: boolean, it) =>
              it.pinned ? (
                <Tooltip title={t('settings.codes.pinnedHint')}>
                  <Tag color="purple">{t('settings.codes.pinned')}</Tag>
                </Tooltip>
              ) : (
                <Tag color={v ? 'blue' : 'gold'}>{t(v ? 'settings.codes.builtin' : 'settings.codes.custom')}</Tag>
              ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            width: 150,
            render: (_, it) => (
              <Space size={0}>
                <AuthButton code="edit">
                  <Button type="link" size="small" onClick={() => setDialog({ item: it })}>
                    {t('common.edit')}
                  </Button>
                </AuthButton>
                <AuthButton code="delete">
                  {it.builtin || it.pinned ? (
                    <Tooltip title={t(it.pinned ? 'settings.codes.pinnedHint' : 'settings.codes.builtinHint')}>
                      <Button type="link" size="small" danger disabled>
                        {t('common.delete')}
                      </Button>
                    </Tooltip>
                  ) : (
                    <ConfirmDelete run={() => codeDelete(it.id)} onDone={() => (reload(), void counts.refetch())} />
                  )}
                </AuthButton>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
