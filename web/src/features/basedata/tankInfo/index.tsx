import { PlusOutlined, WarningOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Select, Space, Tabs, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CAR_EXPORT, deleteGround, GROUND_EXPORT, pageCars, pageGround, PRODUCTS, tankStations, type CarQuery, type CarSummary, type GroundQuery, type GroundTank } from '../../../api/tankInfo';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { GroupSelect } from '../../../components/GroupSelect';
import { ListPage } from '../../../components/ListPage';
import { CarEditor } from './CarEditor';
import { GroundForm, type GroundTarget } from './GroundForm';
import './tankInfo.css';

type CarFilters = Omit<CarQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;
type GroundFilters = Omit<GroundQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

const litres = (v: number) => (v ? v.toLocaleString() : '—');

/** 油罐信息: 车辆仓位 (each car's compartments and strapping tables) and 站点油罐 (each station's ground tanks). */
export default function TankInfoPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState('cars');
  return (
    <Tabs
      className="tw-tankinfo"
      activeKey={tab}
      onChange={setTab}
      destroyOnHidden
      items={[
        { key: 'cars', label: <span data-testid="tab-cars">{t('tankInfo.tabCars')}</span>, children: <CarsTab /> },
        { key: 'ground', label: <span data-testid="tab-ground">{t('tankInfo.tabGround')}</span>, children: <GroundTab /> },
      ]}
    />
  );
}

function CarsTab() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<CarSummary | null>(null);
  return (
    <ListPage<CarSummary, CarFilters>
      queryKey="tankInfoCars"
      rowKey="carId"
      fetch={pageCars}
      filters={
        <>
          <Form.Item name="plate" label={t('tankInfo.plate')}>
            <Input allowClear style={{ width: 160 }} data-testid="car-plate-filter" />
          </Form.Item>
          <Form.Item name="groupId" label={t('tankInfo.group')}>
            <GroupSelect filter />
          </Form.Item>
          <Form.Item name="tableState" label={t('tankInfo.tableState')}>
            <Select
              allowClear
              placeholder={t('common.all')}
              style={{ width: 170 }}
              options={(['all', 'some', 'none'] as const).map((v) => ({ value: v, label: t(`tankInfo.state.${v}`) }))}
            />
          </Form.Item>
        </>
      }
      exportRequest={(f) => ({ url: CAR_EXPORT, method: 'POST', data: f })}
      toolbar={({ reload }) => (
        <>{editing !== null && <CarEditor carId={editing.carId} plate={editing.plate} onClose={() => setEditing(null)} onSaved={reload} />}</>
      )}
      columns={[
        {
          title: t('tankInfo.plate'),
          dataIndex: 'plate',
          key: 'plate',
          sorter: true,
          width: 130,
          render: (v: string, c) => (
            <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setEditing(c)} data-testid={`car-open-${v}`}>
              {v}
            </Button>
          ),
        },
        { title: t('tankInfo.group'), dataIndex: 'groupName', key: 'groupName', sorter: true, width: 140, ellipsis: true },
        { title: t('tankInfo.product'), dataIndex: 'fuelType', key: 'fuelType', width: 110, render: (v: number) => t(`tankInfo.productName.${v}`, { defaultValue: String(v) }) },
        { title: t('tankInfo.registeredCol'), dataIndex: 'compartments', key: 'compartments', sorter: true, width: 110, align: 'right' },
        { title: t('tankInfo.listedCol'), dataIndex: 'listed', key: 'listed', sorter: true, width: 110, align: 'right' },
        {
          title: t('tankInfo.tablesCol'),
          dataIndex: 'tables',
          key: 'tables',
          sorter: true,
          width: 150,
          render: (v: number, c) =>
            v === 0 ? <Tag>{t('tankInfo.state.none')}</Tag> : v >= c.compartments ? <Tag color="green">{t('tankInfo.tablesOf', { n: v, of: c.compartments })}</Tag> : <Tag color="orange">{t('tankInfo.tablesOf', { n: v, of: c.compartments })}</Tag>,
        },
        { title: t('tankInfo.totalCapacity'), dataIndex: 'capacity', key: 'capacity', width: 140, align: 'right', render: litres },
        { title: t('tankInfo.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 170, render: (v: string) => v || '—' },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 120,
          render: (_, c) => (
            <Button type="link" size="small" onClick={() => setEditing(c)}>
              {t('tankInfo.openCar')}
            </Button>
          ),
        },
      ]}
    />
  );
}

function GroundTab() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<GroundTarget | null>(null);
  const stations = useQuery({ queryKey: ['tankInfoStations'], queryFn: tankStations });
  const options = (stations.data ?? []).map((s) => ({ value: s.id, label: s.stationName }));
  return (
    <ListPage<GroundTank, GroundFilters>
      queryKey="tankInfoGround"
      rowKey="id"
      fetch={pageGround}
      filters={
        <>
          <Form.Item name="stationId" label={t('tankInfo.station')}>
            <Select allowClear showSearch optionFilterProp="label" placeholder={t('common.all')} style={{ width: 220 }} options={options} loading={stations.isLoading} data-testid="ground-station-filter" />
          </Form.Item>
          <Form.Item name="product" label={t('tankInfo.product')}>
            <Select allowClear placeholder={t('common.all')} style={{ width: 130 }} options={PRODUCTS.map((p) => ({ value: p, label: t(`tankInfo.productName.${p}`) }))} />
          </Form.Item>
          <Form.Item name="name" label={t('tankInfo.tankName')}>
            <Input allowClear style={{ width: 140 }} />
          </Form.Item>
        </>
      }
      exportRequest={(f) => ({ url: GROUND_EXPORT, method: 'POST', data: f })}
      toolbar={({ reload, filters }) => (
        <>
          <AuthButton code="edit">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'add', stationId: filters.stationId })} data-testid="ground-add">
              {t('tankInfo.addTank')}
            </Button>
          </AuthButton>
          {editing && (
            <GroundForm
              target={editing}
              stations={stations.data ?? []}
              onClose={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                reload();
                void stations.refetch();
              }}
            />
          )}
        </>
      )}
      columns={({ reload }) => [
        { title: t('tankInfo.station'), dataIndex: 'stationName', key: 'stationName', sorter: true, width: 190, ellipsis: true },
        { title: t('tankInfo.tankNo'), dataIndex: 'tankNo', key: 'tankNo', sorter: true, width: 100, align: 'right' },
        { title: t('tankInfo.tankName'), dataIndex: 'name', key: 'name', sorter: true, width: 130, ellipsis: true, render: (v: string) => v || '—' },
        { title: t('tankInfo.product'), dataIndex: 'product', key: 'product', sorter: true, width: 110, render: (v: number) => t(`tankInfo.productName.${v}`) },
        {
          title: t('tankInfo.capacityL'),
          key: 'capacity',
          dataIndex: 'capacity',
          sorter: true,
          width: 150,
          align: 'right',
          render: (_, g) => (
            <Space size={4}>
              {g.capacityWarning && (
                <Tooltip title={t('tankInfo.capacityWarning', { top: g.tableCapacity.toLocaleString(), nominal: g.capacity.toLocaleString() })}>
                  <WarningOutlined style={{ color: '#faad14' }} />
                </Tooltip>
              )}
              {litres(g.tableCapacity || g.capacity)}
            </Space>
          ),
        },
        { title: t('tankInfo.strapRows'), dataIndex: 'strapRows', key: 'strapRows', width: 110, align: 'right', render: (v: number) => (v ? v : <Tag>{t('tankInfo.state.none')}</Tag>) },
        {
          title: t('tankInfo.gaugeCol'),
          key: 'gaugeHost',
          dataIndex: 'gaugeHost',
          sorter: true,
          width: 180,
          render: (_, g) => (g.gaugeHost ? `${g.gaugeHost.includes(':') ? `[${g.gaugeHost}]` : g.gaugeHost}:${g.gaugePort} #${g.gaugeTank}` : <Tag>{t('tankInfo.noGauge')}</Tag>),
        },
        {
          title: t('tankInfo.thresholds'),
          key: 'thresholds',
          width: 230,
          ellipsis: true,
          render: (_, g) => t('tankInfo.thresholdText', { pct: g.lowStockPct, days: g.coverDaysMin, water: g.waterMaxMm }),
        },
        { title: t('tankInfo.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 170 },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          width: 140,
          render: (_, g) => (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => setEditing({ mode: 'edit', id: g.id })} data-testid={`ground-edit-${g.id}`}>
                {t('tankInfo.open')}
              </Button>
              <AuthButton code="delete">
                <ConfirmDelete
                  run={() => deleteGround(g.id)}
                  onDone={() => {
                    reload();
                    void stations.refetch();
                  }}
                  data-testid={`ground-delete-${g.id}`}
                />
              </AuthButton>
            </Space>
          ),
        },
      ]}
    />
  );
}
