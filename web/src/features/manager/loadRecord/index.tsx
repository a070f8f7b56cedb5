import { ImportOutlined, PlusOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Input, Select, Space, Table, Tabs, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { zoneNow } from '../../../lib/zone';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadDelete, loadDetail, loadExport, loadOptions, loadPage, type LoadDetail, type LoadItem, type LoadQuery, type LoadRecord } from '../../../api/waybillLoads';
import { AuthButton, useAuth } from '../../../components/AuthButton';
import { confirmDelete } from '../../../components/confirmDelete';
import { ListPage } from '../../../components/ListPage';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { WaybillState } from '../transportPlan';
import { ImportModal } from './ImportModal';
import { RecordForm } from './RecordForm';
import { LoadReportTab } from './Report';
import { SealCheckModal } from './SealCheckModal';

type Filters = Omit<LoadQuery, 'pageNum' | 'pageSize'>;
const F = 'YYYY-MM-DD HH:mm:ss';

export function toLoadFilters(v: Record<string, unknown>): Filters {
  const { range, ...rest } = v as { range?: [Dayjs, Dayjs] } & Filters;
  return { ...rest, ...(range ? { startTime: range[0].startOf('day').format(F), endTime: range[1].endOf('day').format(F) } : {}) };
}

/** States in which a waybill's load record may still be entered or changed (before sealing). */
export const EDITABLE = ['PLANNED', 'DISPATCHED', 'LOADING', 'LOADED'];

function Items({ id }: { id: number }) {
  const { t } = useTranslation();
  const d = useQuery({ queryKey: ['loadDetail', id], queryFn: () => loadDetail(id) });
  return (
    <Table<LoadItem>
      size="small"
      rowKey="compartment"
      loading={d.isLoading}
      pagination={false}
      dataSource={d.data?.itemList ?? []}
      columns={[
        { title: t('loadRecord.compartment'), dataIndex: 'compartment', width: 80 },
        { title: t('loadRecord.product'), dataIndex: 'productName' },
        { title: t('loadRecord.vt'), dataIndex: 'vtL', align: 'right' },
        { title: t('loadRecord.temp'), dataIndex: 'tempC', align: 'right' },
        { title: t('loadRecord.density'), dataIndex: 'density20', align: 'right' },
        { title: 'VCF20', dataIndex: 'vcf20', align: 'right', render: (v: number) => v.toFixed(5) },
        { title: 'V20 (L)', dataIndex: 'v20L', align: 'right', render: (v: number) => v.toFixed(1) },
        { title: t('loadRecord.mass'), dataIndex: 'massT', align: 'right', render: (v: number) => v.toFixed(3) },
        { title: t('loadRecord.sealNo'), dataIndex: 'sealNo' },
      ]}
    />
  );
}

function Records() {
  const { t } = useTranslation();
  const app = App.useApp();
  const client = useQueryClient();
  const [editing, setEditing] = useState<LoadDetail | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [checking, setChecking] = useState(false);
  const options = useQuery({ queryKey: ['loadOptions'], queryFn: loadOptions, staleTime: 10_000 });
  const canEdit = useAuth('edit');
  const canDelete = useAuth('delete');
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['loadRecord'] });
    void client.invalidateQueries({ queryKey: ['loadOptions'] });
    void client.invalidateQueries({ queryKey: ['loadDetail'] });
  };
  const edit = async (r: LoadRecord) => {
    try {
      setEditing(await loadDetail(r.id));
    } catch {
      // shown by the client
    }
  };
  return (
    <>
      <ListPage<LoadRecord, Filters>
        queryKey="loadRecord"
        rowKey="id"
        fetch={(q) => loadPage(q as LoadQuery)}
        toFilters={toLoadFilters}
        initialFilters={{ range: [zoneNow().subtract(6, 'day'), zoneNow()] } as Partial<Filters>} // the platform's days, as the server reads them
        exportCode="export"
        exportRequest={loadExport}
        filters={
          <>
            <Form.Item name="range" label={t('loadRecord.loadedAt')}>
              <DatePicker.RangePicker />
            </Form.Item>
            <Form.Item name="carId" label={t('loadRecord.plate')}>
              <VehiclePicker placeholder={t('common.all')} />
            </Form.Item>
            <Form.Item name="waybillNo" label={t('loadRecord.waybillNo')}>
              <Input allowClear style={{ width: 180 }} />
            </Form.Item>
            <Form.Item name="source" label={t('loadRecord.source')}>
              <Select allowClear placeholder={t('common.all')} style={{ width: 120 }} options={[1, 2, 3].map((s) => ({ value: s, label: t(`waybillCommon.load.${s}`) }))} />
            </Form.Item>
          </>
        }
        toolbar={() => (
          <Space>
            <AuthButton code="edit">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
                {t('loadRecord.add')}
              </Button>
            </AuthButton>
            <AuthButton code="import">
              <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
                {t('loadRecord.import')}
              </Button>
            </AuthButton>
            <AuthButton code="sealCheck">
              <Button icon={<SafetyCertificateOutlined />} onClick={() => setChecking(true)}>
                {t('loadRecord.sealCheck')}
              </Button>
            </AuthButton>
          </Space>
        )}
        tableProps={{ expandable: { expandedRowRender: (r) => <Items id={r.id} /> }, scroll: { x: 1700 }, locale: { emptyText: t('loadRecord.empty') } }}
        columns={(ctx) => [
          { title: t('loadRecord.loadedAt'), dataIndex: 'loadedAt', key: 'loadedAt', width: 160, sorter: true, render: (v: number) => dayjs(v).format('YYYY-MM-DD HH:mm') },
          { title: t('loadRecord.waybillNo'), dataIndex: 'waybillNo', key: 'waybillNo', width: 200, sorter: true },
          { title: t('loadRecord.waybillState'), dataIndex: 'waybillState', key: 'waybillState', width: 110, render: (s: string) => <WaybillState state={s} /> },
          { title: t('loadRecord.plate'), dataIndex: 'plate', key: 'plate', width: 110, sorter: true },
          { title: t('loadRecord.depot'), dataIndex: 'depotName', key: 'depotName', width: 180, sorter: true },
          { title: t('loadRecord.ticketNo'), dataIndex: 'ticketNo', key: 'ticketNo', width: 170, sorter: true },
          { title: t('loadRecord.itemsShort'), dataIndex: 'items', key: 'items', width: 70, align: 'right' },
          { title: t('loadRecord.vt'), dataIndex: 'vtL', key: 'vtL', width: 120, align: 'right', sorter: true, render: (v: number) => v.toFixed(1) },
          { title: 'V20 (L)', dataIndex: 'v20L', key: 'v20L', width: 120, align: 'right', sorter: true, render: (v: number) => <b>{v.toFixed(1)}</b> },
          { title: t('loadRecord.mass'), dataIndex: 'massT', key: 'massT', width: 100, align: 'right', sorter: true, render: (v: number) => v.toFixed(3) },
          { title: t('loadRecord.sealNo'), dataIndex: 'seals', key: 'seals', width: 180 },
          { title: t('loadRecord.source'), dataIndex: 'source', key: 'source', width: 90, render: (s: number) => <Tag>{t(`waybillCommon.load.${s}`)}</Tag> },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 130,
            fixed: 'right',
            render: (_: unknown, r: LoadRecord) =>
              EDITABLE.includes(r.waybillState) ? (
                <Space size={4}>
                  {canEdit && (
                    <Button type="link" size="small" onClick={() => void edit(r)}>
                      {t('common.edit')}
                    </Button>
                  )}
                  {canDelete && (
                    <Button type="link" size="small" danger onClick={() => confirmDelete(app, { run: () => loadDelete(r.id), onDone: () => (ctx.reload(), refresh()) })}>
                      {t('common.delete')}
                    </Button>
                  )}
                </Space>
              ) : (
                <Tag>{t('loadRecord.lockedSealed')}</Tag>
              ),
          },
        ]}
      />
      {editing && (
        <RecordForm
          record={editing === 'new' ? undefined : editing}
          options={options.data}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
      {importing && <ImportModal onClose={() => setImporting(false)} onSaved={refresh} />}
      {checking && <SealCheckModal waybills={options.data?.unsealing ?? []} onClose={() => setChecking(false)} onDone={refresh} />}
    </>
  );
}

/** 装卸记录 (04-25): load records with V20 and seals, their import and the seal check; the load report. */
export default function LoadRecordPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      className="tw-page"
      destroyOnHidden
      items={[
        { key: 'records', label: t('loadRecord.tabRecords'), children: <Records /> },
        { key: 'report', label: t('loadRecord.tabReport'), children: <LoadReportTab /> },
      ]}
    />
  );
}
