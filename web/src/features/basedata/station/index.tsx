import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteStation, pageStations, STATION_TYPES, type Station, type StationQuery } from '../../../api/station';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { StationForm, type StationFormTarget } from './StationForm';
import { StationView } from './StationView';

type StationFilters = Omit<StationQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** 站点管理: filters (name, type, group), paging, export, add/edit with the fence on a map, view, delete. */
export default function StationPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<StationFormTarget | null>(null);
  const [viewing, setViewing] = useState<Station | null>(null);
  // A new station's map opens where the listed stations are.
  const [near, setNear] = useState<[number, number] | undefined>();

  return (
    <ListPage<Station, StationFilters>
      queryKey="station"
      rowKey="id"
      fetch={async (q) => {
        const p = await pageStations(q);
        if (p.list[0]) setNear([p.list[0].lng, p.list[0].lat]);
        return p;
      }}
      tableProps={{ scroll: { x: 1340 } }}
      filters={
        <>
          <Form.Item name="stationName" label={t('station.stationName')}>
            <Input allowClear style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="stationType" label={t('station.stationType')}>
            <Select allowClear placeholder={t('common.all')} style={{ width: 160 }} options={STATION_TYPES.map((v) => ({ value: v, label: t(`station.type.${v}`) }))} />
          </Form.Item>
          <Form.Item name="groupId" label={t('station.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      exportRequest={(f) => ({ url: '/base-info-app/station/export', method: 'POST', data: f })}
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'add', center: near })} data-testid="station-add">
              {t('station.addTitle')}
            </Button>
          </AuthButton>
          {editing && (
            <StationForm
              target={editing}
              onClose={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                reload();
              }}
            />
          )}
          {viewing && <StationView station={viewing} onClose={() => setViewing(null)} />}
        </>
      )}
      columns={({ reload }) => [
        { title: t('station.stationName'), dataIndex: 'stationName', key: 'stationName', sorter: true, width: 220, ellipsis: true },
        {
          title: t('station.stationType'),
          dataIndex: 'stationType',
          key: 'stationType',
          sorter: true,
          width: 130,
          render: (v: string) => t(`station.type.${v}`, { defaultValue: v }),
        },
        { title: t('station.fenceType'), dataIndex: 'fenceType', key: 'fenceType', sorter: true, width: 100, render: (v: number) => t(`station.fenceKind.${v}`) },
        {
          title: t('station.fenceSize'),
          key: 'size',
          width: 130,
          render: (_, s) => (s.fenceType === 2 ? `${s.raduis} ${t('station.metres')}` : t('station.vertices', { n: s.fencePoints.split(';').filter(Boolean).length })),
        },
        { title: t('station.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 130, ellipsis: true },
        { title: t('station.address'), dataIndex: 'address', key: 'address', width: 180, ellipsis: true },
        { title: t('station.contact'), dataIndex: 'contact', key: 'contact', width: 100, ellipsis: true },
        { title: t('station.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 170 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 180,
          render: (_, s) => (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => setViewing(s)}>
                {t('station.view')}
              </Button>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing({ mode: 'edit', station: s })}>
                  {t('menu.station-edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                <ConfirmDelete run={() => deleteStation(s.id)} onDone={reload} />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
