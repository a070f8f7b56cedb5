import { EnvironmentOutlined, LinkOutlined, PlusOutlined, TruckOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusinessError } from '../../../api/client';
import { deviceDelete, deviceExport, devicePage, STATES, WARRANTIES, type Device, type DeviceQuery } from '../../../api/equipment';
import { useCodes } from '../../../api/useCodes';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { DeviceForm } from './DeviceForm';
import { daysLeft, kindColour, stateColour, warrantyColour } from './model';
import { PlaceSelect } from './PlaceSelect';

type Filters = Omit<DeviceQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

/** Deleting a mirrored device's row: says that only the extra fields go, the device stays in its register. */
function MirrorDelete({ d, onDone }: { d: Device; onDone: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  if (!d.id)
    return (
      <Tooltip title={t('equipment.nothingToDelete')}>
        <Button type="link" size="small" danger disabled>
          {t('common.delete')}
        </Button>
      </Tooltip>
    );
  return (
    <Button
      type="link"
      size="small"
      danger
      onClick={() =>
        modal.confirm({
          title: t('common.prompt'),
          content: t(`equipment.confirmMirrorDelete.${d.kind}`, { serial: d.serial }),
          okText: t('common.ok'),
          cancelText: t('common.cancel'),
          okButtonProps: { danger: true },
          onOk: async () => {
            try {
              await deviceDelete(d.id);
              void message.success(t(`equipment.mirrorDeleted.${d.kind}`));
              onDone();
            } catch (e) {
              modal.error({ title: t('delete.failed'), content: e instanceof BusinessError ? e.message : t('common.requestFailed'), okText: t('common.ok') });
            }
          },
        })
      }
    >
      {t('equipment.deleteFields')}
    </Button>
  );
}

/** The warranty cell: the end date and its state (days left while expiring). */
function WarrantyCell({ d }: { d: Device }) {
  const { t } = useTranslation();
  if (!d.warrantyEnd) return <span className="tw-muted">—</span>;
  const left = daysLeft(d.warrantyEnd, dayjs().format('YYYY-MM-DD'));
  return (
    <Space size={4} style={{ whiteSpace: 'nowrap' }}>
      <span>{d.warrantyEnd}</span>
      <Tag color={warrantyColour(d.warranty)} bordered={false}>
        {d.warranty === 2 && left >= 0 ? t('equipment.daysLeft', { n: left }) : t(`equipment.warrantyName.${d.warranty}`)}
      </Tag>
    </Space>
  );
}

/** 设备管理 (basedata/equipment, 03-17): every device on the cars and at the stations in one list. */
export default function EquipmentPage() {
  const { t } = useTranslation();
  const kinds = useCodes('equipmentKind');
  const [editing, setEditing] = useState<{ device: Device | null } | null>(null);
  return (
    <ListPage<Device, Filters>
      queryKey="equipment"
      rowKey="key"
      fetch={(q) => devicePage(q as DeviceQuery)}
      exportCode="export"
      exportRequest={deviceExport}
      filters={
        <>
          <Form.Item name="kind" label={t('equipment.kind')}>
            <Select allowClear style={{ width: 130 }} placeholder={t('common.all')} options={kinds.all()} />
          </Form.Item>
          <Form.Item name="serial" label={t('equipment.serial')}>
            <Input allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="plate" label={t('equipment.plate')}>
            <Input allowClear style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="stationId" label={t('equipment.station')}>
            <PlaceSelect which="stations" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="state" label={t('equipment.state')}>
            <Select allowClear style={{ width: 100 }} placeholder={t('common.all')} options={STATES.map((s) => ({ value: s, label: t(`equipment.stateName.${s}`) }))} />
          </Form.Item>
          <Form.Item name="warranty" label={t('equipment.warranty')}>
            <Select
              allowClear
              style={{ width: 110 }}
              placeholder={t('common.all')}
              options={WARRANTIES.map((w) => ({ value: w, label: t(`equipment.warrantyName.${w}`) }))}
            />
          </Form.Item>
          <Form.Item name="groupId" label={t('equipment.group')}>
            <GroupSelect filter />
          </Form.Item>
        </>
      }
      toolbar={({ reload }) => (
        <>
          <AuthButton code="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ device: null })}>
              {t('equipment.addTitle')}
            </Button>
          </AuthButton>
          <span className="tw-muted" style={{ marginInlineStart: 12 }}>
            {t('equipment.mirrorNote')}
          </span>
          {editing && <DeviceForm device={editing.device} onClose={() => setEditing(null)} onSaved={() => (setEditing(null), reload())} />}
        </>
      )}
      tableProps={{ scroll: { x: 1480 }, locale: { emptyText: t('equipment.empty') } }}
      columns={({ reload }) => [
        {
          title: t('equipment.kind'),
          dataIndex: 'kind',
          key: 'kind',
          sorter: true,
          width: 140,
          fixed: 'left',
          render: (k: string, d) => (
            <Space size={4}>
              <Tag bordered={false} color={kindColour(k)}>
                {kinds.label(k)}
              </Tag>
              {d.mirror && (
                <Tooltip title={t(`equipment.mirrorHint.${k}`)}>
                  <LinkOutlined className="tw-muted" aria-label={t('equipment.mirrored')} />
                </Tooltip>
              )}
            </Space>
          ),
        },
        { title: t('equipment.serial'), dataIndex: 'serial', key: 'serial', sorter: true, width: 150 },
        { title: t('equipment.model'), dataIndex: 'modelName', key: 'modelName', sorter: true, width: 130, render: (v: string) => v || '—' },
        {
          title: t('equipment.place'),
          key: 'plate',
          sorter: true,
          width: 170,
          ellipsis: true,
          render: (_, d) =>
            d.plate ? (
              <span>
                <TruckOutlined className="tw-muted" /> {d.plate}
              </span>
            ) : d.stationName ? (
              <span>
                <EnvironmentOutlined className="tw-muted" /> {d.stationName}
              </span>
            ) : (
              <span className="tw-muted">{t('equipment.placeNone')}</span>
            ),
        },
        { title: t('equipment.warrantyEnd'), key: 'warrantyEnd', sorter: true, width: 200, render: (_, d) => <WarrantyCell d={d} /> },
        {
          title: t('equipment.state'),
          dataIndex: 'state',
          key: 'state',
          sorter: true,
          width: 90,
          render: (s: number) => (
            <Tag color={stateColour(s)} bordered={false}>
              {t(`equipment.stateName.${s}`)}
            </Tag>
          ),
        },
        { title: t('equipment.installDate'), dataIndex: 'installDate', key: 'installDate', sorter: true, width: 110, render: (v: string) => v || '—' },
        { title: t('equipment.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 120, ellipsis: true },
        { title: t('equipment.manufacturer'), dataIndex: 'manufacturer', key: 'manufacturer', sorter: true, width: 110, ellipsis: true, render: (v: string) => v || '—' },
        { title: t('equipment.notes'), dataIndex: 'notes', key: 'notes', width: 130, ellipsis: true, render: (v: string) => v || '—' },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 170,
          render: (_, d) => (
            <Space size={0}>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => setEditing({ device: d })}>
                  {t(d.mirror && !d.id ? 'equipment.addFields' : 'common.edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">{d.mirror ? <MirrorDelete d={d} onDone={reload} /> : <ConfirmDelete run={() => deviceDelete(d.id)} onDone={reload} />}</AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
