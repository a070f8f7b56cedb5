import { PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteCars, pageCars, type Car, type CarQuery } from '../../../api/fleet';
import { AuthButton } from '../../../components/AuthButton';
import { GroupSelect } from '../../../components/GroupSelect';
import { BatchDeleteButton } from '../../../components/BatchDeleteButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { ListPage } from '../../../components/ListPage';
import { CarForm } from './CarForm';
import { ChannelsModal } from './ChannelsModal';
import { fuelLabel, fuelOptions } from './fleetOptions';
import { MoveModal } from './MoveModal';

type CarFilters = Omit<CarQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

const muted = (v: string | null | undefined) => v || <span className="tw-muted">—</span>;

/** 车辆管理: filter, page, add/edit, video channels, move to group, delete, export. */
export default function GroupCarPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ car: Car | null } | null>(null);
  const [channels, setChannels] = useState<Car | null>(null);
  const [moving, setMoving] = useState<number[] | null>(null);

  return (
    <ListPage<Car, CarFilters>
      queryKey="groupCar"
      rowKey="id"
      fetch={pageCars}
      selectable
      tableProps={{ scroll: { x: 1300 } }}
      exportRequest={(f) => ({ url: '/base-info-app/carInfo/export', method: 'POST', data: f })}
      filters={
        <>
          <Form.Item name="plate" label={t('car.plate')}>
            <Input allowClear style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="driverName" label={t('car.driverName')}>
            <Input allowClear style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="groupId" label={t('car.group')}>
            <GroupSelect filter />
          </Form.Item>
          <Form.Item name="fuelType" label={t('car.fuelType')}>
            <Select allowClear style={{ width: 120 }} placeholder={t('car.all')} options={fuelOptions(t)} />
          </Form.Item>
        </>
      }
      toolbar={({ reload, selectedRowKeys, clearSelection }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ car: null })}>
              {t('car.addTitle')}
            </Button>
          </AuthButton>
          <AuthButton code="move">
            <Button icon={<SwapOutlined />} disabled={!selectedRowKeys.length} onClick={() => setMoving(selectedRowKeys.map(Number))}>
              {t('menu.groupCar-move')}
            </Button>
          </AuthButton>
          <BatchDeleteButton ids={selectedRowKeys} remove={deleteCars} onDone={() => { clearSelection(); reload(); }} />
          {editing && (
            <CarForm
              car={editing.car}
              onClose={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                reload();
              }}
            />
          )}
          {moving && (
            <MoveModal
              ids={moving}
              onClose={() => setMoving(null)}
              onDone={() => {
                setMoving(null);
                clearSelection();
                reload();
              }}
            />
          )}
          {channels && <ChannelsModal car={channels} onClose={() => setChannels(null)} />}
        </>
      )}
      columns={({ reload }) => [
        { title: t('car.plate'), dataIndex: 'plate', key: 'plate', sorter: true, width: 120, fixed: 'left' },
        { title: t('car.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 140, ellipsis: true },
        {
          title: t('car.driverName'),
          dataIndex: 'driverName',
          key: 'driverName',
          sorter: true,
          width: 160,
          render: (v: string, c) => (v || c.driverPhone ? <span>{v}{c.driverPhone ? <span className="tw-muted"> {c.driverPhone}</span> : null}</span> : muted('')),
        },
        { title: t('car.compartments'), dataIndex: 'compartments', key: 'compartments', sorter: true, width: 90, align: 'right' },
        { title: t('car.fuelType'), dataIndex: 'fuelType', key: 'fuelType', sorter: true, width: 110, render: (v: number) => fuelLabel(t, v) },
        { title: t('car.terminalPhone'), dataIndex: 'terminalPhone', key: 'terminalPhone', width: 140, render: muted },
        { title: t('car.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 170 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 200,
          render: (_, c) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing({ car: c })}>
                  {t('menu.groupCar-edit')}
                </Button>
              </AuthButton>
              <AuthButton code="channels">
                <Button type="link" size="small" onClick={() => setChannels(c)}>
                  {t('menu.groupCar-channels')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                <ConfirmDelete run={() => deleteCars([c.id])} onDone={reload} />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
