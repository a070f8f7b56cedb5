import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { modelDelete, modelPage, type DeviceModel, type ModelQuery } from '../../../api/equipment';
import { useCodes } from '../../../api/useCodes';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { ListPage } from '../../../components/ListPage';
import { functionLabels } from './model';
import { ModelForm } from './ModelForm';

type Filters = Omit<ModelQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** The video filter's form value ('yes' / 'no') as the query's boolean. */
export function toModelFilters(v: Record<string, unknown>): Filters {
  const { video, ...rest } = v as { video?: string } & Filters;
  return { ...rest, ...(video ? { video: video === 'yes' } : {}) };
}

/** 设备功能 (access/equipmentFun, 06-09): device models and what each offers, shared by the whole platform. */
export default function EquipmentFunPage() {
  const { t } = useTranslation();
  const kinds = useCodes('equipmentKind');
  const [editing, setEditing] = useState<{ model: DeviceModel | null } | null>(null);
  // the buttons show only for users who may change models (the platform's); the server decides
  const [editable, setEditable] = useState(false);
  return (
    <ListPage<DeviceModel, Filters>
      queryKey="equipmentFun"
      rowKey="id"
      fetch={async (q) => {
        const page = await modelPage(q as ModelQuery);
        setEditable(page.editable);
        return page;
      }}
      toFilters={toModelFilters}
      filters={
        <>
          <Form.Item name="name" label={t('equipment.fun.name')}>
            <Input allowClear style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="kind" label={t('equipment.kind')}>
            <Select allowClear style={{ width: 140 }} placeholder={t('common.all')} options={kinds.all()} />
          </Form.Item>
          <Form.Item name="video" label={t('equipment.fun.video')}>
            <Select
              allowClear
              style={{ width: 120 }}
              placeholder={t('common.all')}
              options={[
                { value: 'yes', label: t('equipment.fun.withVideo') },
                { value: 'no', label: t('equipment.fun.withoutVideo') },
              ]}
            />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          {editable && (
            <AuthButton code="add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ model: null })}>
                {t('equipment.fun.addTitle')}
              </Button>
            </AuthButton>
          )}
          <Alert
            type="info"
            showIcon
            style={{ padding: '4px 12px' }}
            message={editable ? t('equipment.fun.unknownNote') : `${t('equipment.fun.unknownNote')} ${t('equipment.fun.platformOnly')}`}
          />
          {editing && <ModelForm model={editing.model} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), reload())} />}
        </>
      )}
      tableProps={{ scroll: { x: 1200 }, locale: { emptyText: t('equipment.fun.empty') } }}
      columns={({ reload }) => [
        { title: t('equipment.fun.name'), dataIndex: 'name', key: 'name', sorter: true, width: 150, fixed: 'left' },
        { title: t('equipment.kind'), dataIndex: 'kind', key: 'kind', sorter: true, width: 120, render: (k: string) => kinds.label(k) },
        { title: t('equipment.manufacturer'), dataIndex: 'manufacturer', key: 'manufacturer', sorter: true, width: 130, ellipsis: true, render: (v: string) => v || '—' },
        {
          title: t('equipment.fun.functions'),
          key: 'functions',
          width: 330,
          render: (_, m) => {
            const labels = functionLabels(m);
            if (labels.length === 0) return <span className="tw-muted">{t('equipment.fun.none')}</span>;
            return (
              <Space size={[4, 4]} wrap>
                {labels.map((l) =>
                  l.key === 'equipment.fun.videoN' && m.channelNames.length > 0 ? (
                    <Tooltip key={l.key} title={m.channelNames.map((n, i) => n || t('equipment.channelNo', { n: i + 1 })).join(t('common.listSeparator'))}>
                      <Tag color="blue" bordered={false}>
                        {t(l.key, { n: l.n })}
                      </Tag>
                    </Tooltip>
                  ) : (
                    <Tag key={l.key} color={l.key === 'equipment.fun.videoN' ? 'blue' : 'default'} bordered={false}>
                      {t(l.key, { n: l.n })}
                    </Tag>
                  ),
                )}
              </Space>
            );
          },
        },
        { title: t('equipment.fun.devices'), dataIndex: 'devices', key: 'devices', sorter: true, width: 90, align: 'right' },
        { title: t('equipment.notes'), dataIndex: 'remark', key: 'remark', width: 180, ellipsis: true, render: (v: string) => v || '—' },
        { title: t('equipment.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 180, render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v}</span> },
        ...(editable
          ? [
              {
                title: t('common.actions'),
                key: 'actions',
                fixed: 'right' as const,
                width: 130,
                render: (_: unknown, m: DeviceModel) => (
                  <Space size={0}>
                    <AuthButton code="edit">
                      <Button type="link" size="small" onClick={() => setEditing({ model: m })}>
                        {t('common.edit')}
                      </Button>
                    </AuthButton>
                    <AuthButton code="delete">
                      {m.devices > 0 ? (
                        <Tooltip title={t('equipment.fun.inUseHint', { n: m.devices })}>
                          <Button type="link" size="small" danger disabled>
                            {t('common.delete')}
                          </Button>
                        </Tooltip>
                      ) : (
                        <ConfirmDelete run={() => modelDelete(m.id)} onDone={reload} />
                      )}
                    </AuthButton>
                  </Space>
                ),
              },
            ]
          : []),
      ]}
    />
  );
}
