import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteSensor, DECODERS, pageSensors, type Sensor, type SensorQuery } from '../../../api/sensor';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { ListPage } from '../../../components/ListPage';
import { SensorForm, type SensorFormMode } from './SensorForm';

type SensorFilters = Omit<SensorQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** 传感器管理: name filter, page, add/edit, delete (one id per call). */
export default function SensorPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ mode: SensorFormMode; sensor: Sensor | null } | null>(null);

  return (
    <ListPage<Sensor, SensorFilters>
      queryKey="sensor"
      rowKey="id"
      fetch={pageSensors}
      tableProps={{ scroll: { x: 1150 } }}
      filters={
        <Form.Item name="name" label={t('sensor.name')}>
          <Input allowClear style={{ width: 180 }} />
        </Form.Item>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'add', sensor: null })}>
              {t('sensor.addTitle')}
            </Button>
          </AuthButton>
          {editing && (
            <SensorForm
              mode={editing.mode}
              sensor={editing.sensor}
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
        { title: t('sensor.name'), dataIndex: 'name', key: 'name', sorter: true, width: 180, ellipsis: true },
        { title: t('sensor.length'), dataIndex: 'length', key: 'length', sorter: true, width: 150 },
        { title: t('sensor.identification'), dataIndex: 'identification', key: 'identification', sorter: true, width: 240 },
        {
          title: t('sensor.decoder'),
          dataIndex: 'decoder',
          key: 'decoder',
          sorter: true,
          width: 130,
          render: (v: string) => ((DECODERS as readonly string[]).includes(v) ? t(`sensor.${v}`) : v),
        },
        { title: t('sensor.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 140, ellipsis: true },
        { title: t('sensor.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 170 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 130,
          render: (_, s) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing({ mode: 'edit', sensor: s })}>
                  {t('menu.sensor-edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                <ConfirmDelete run={() => deleteSensor(s.id)} onDone={reload} />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
