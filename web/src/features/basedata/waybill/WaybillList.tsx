import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthButton } from '../../../components/AuthButton';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { ListPage, type ListContext } from '../../../components/ListPage';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import {
  CANCELLABLE,
  cancelWaybill,
  deleteWaybill,
  dispatchWaybill,
  EXPORT_URL,
  formOptions,
  pageWaybills,
  stateCounts,
  STATES,
  waybillDetail,
  type Waybill,
  type WaybillDetail,
  type WaybillFilters,
  type WaybillView,
} from './api';
import { ImportModal } from './ImportModal';
import { PrintView } from './PrintView';
import { WaybillForm } from './WaybillForm';
import './waybill.css';

const fmt = (ms: number) => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm') : '');
const ARCHIVE_STATES = ['CLOSED', 'CANCELLED'];
const STATE_COLOR: Record<string, string> = { PLANNED: 'default', CLOSED: 'green', DIFF_FLAGGED: 'red', CANCELLED: 'default' };

/** Form values of the filter bar to the query's filters. */
export function toFilters(v: Record<string, unknown>): WaybillFilters {
  const { range, ...rest } = v as { range?: TimeRangeValue } & WaybillFilters;
  return { ...rest, startTime: range?.start || undefined, endTime: range?.end || undefined };
}

/**
 * One of the three waybill views (D43): 'carrier' (basedata/waybill, the carrier's working list with
 * every state, state chips, add/edit/delete/dispatch/cancel/import/export/print), 'sales'
 * (basedata/waybill2, waybills sold by the caller's sales companies, read/export/print, with the
 * carrier) and 'archive' (basedata/waybill3, CLOSED and CANCELLED waybills with loss figures, read/export).
 */
export function WaybillList({ view }: { view: WaybillView }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [editing, setEditing] = useState<WaybillDetail | 'new' | null>(null);
  const [printing, setPrinting] = useState<number | null>(null);
  const [importing, setImporting] = useState(false);
  const carrier = view === 'carrier';
  const opts = useQuery({ queryKey: ['waybillOptions'], queryFn: formOptions, retry: false, enabled: carrier });
  const qc = useQueryClient();
  const counts = { refetch: () => qc.invalidateQueries({ queryKey: ['waybillCounts'] }) };
  const states = view === 'archive' ? ARCHIVE_STATES : STATES;

  const edit = async (id: number) => {
    try {
      setEditing(await waybillDetail(id));
    } catch {
      // shown by the client
    }
  };
  const dispatch = (w: Waybill, reload: () => void) =>
    modal.confirm({
      title: t('waybillBills.dispatchConfirm', { no: w.no, plate: w.plate }),
      content: t('waybillBills.dispatchHint'),
      okText: t('waybillBills.dispatch'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await dispatchWaybill(w.id);
          void message.success(t('waybillBills.dispatched', { no: w.no }));
          reload();
          void counts.refetch();
        } catch {
          // the client showed why (offline terminal, busy car…)
        }
      },
    });
  const cancel = (w: Waybill, reload: () => void) => {
    let reason = '';
    modal.confirm({
      title: t('waybillBills.cancelTitle', { no: w.no }),
      content: <Input.TextArea rows={3} maxLength={200} placeholder={t('waybillBills.reason')} data-testid="wb-cancel-reason" onChange={(e) => (reason = e.target.value)} />,
      okText: t('waybillBills.cancelOk'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        if (!reason.trim()) {
          void message.error(t('waybillBills.form.required', { field: t('waybillBills.reason') }));
          throw new Error('reason');
        }
        await cancelWaybill(w.id, reason.trim());
        void message.success(t('common.operationSuccess'));
        reload();
        void counts.refetch();
      },
    });
  };

  const columns = ({ reload }: ListContext<WaybillFilters>): ColumnsType<Waybill> => {
    const cols: ColumnsType<Waybill> = [
      { title: t('waybillBills.no'), dataIndex: 'no', key: 'no', sorter: true, width: 200, fixed: 'left' },
      {
        title: t('waybillBills.state'),
        dataIndex: 'state',
        key: 'state',
        sorter: true,
        width: 110,
        render: (s: string, w) => (
          <Tag color={STATE_COLOR[s] ?? 'blue'} data-testid={`wb-state-${w.id}`}>
            {t(`waybillCommon.state.${s}`)}
          </Tag>
        ),
      },
      { title: t('waybillBills.plate'), dataIndex: 'plate', key: 'plate', sorter: true, width: 120 },
    ];
    if (view !== 'carrier') cols.push({ title: t('waybillBills.carrier'), dataIndex: 'groupName', key: 'groupName', width: 140, ellipsis: true });
    if (view !== 'sales') cols.push({ title: t('waybillBills.salesGroup'), dataIndex: 'salesGroupName', key: 'salesGroupName', width: 140, ellipsis: true });
    cols.push(
      { title: t('waybillBills.depot'), dataIndex: 'depotName', key: 'depotName', width: 180, ellipsis: true },
      {
        title: t('waybillBills.destinations'),
        key: 'destinations',
        width: 220,
        ellipsis: true,
        render: (_, w) => w.destinations.map((d) => d.stationName).join(t('common.listSeparator')),
      },
      { title: t('waybillBills.plannedL'), dataIndex: 'plannedL', key: 'plannedL', width: 110, render: (v: number) => v.toLocaleString() },
      { title: t('waybillBills.plannedLoadAt'), dataIndex: 'plannedLoadAt', key: 'plannedLoadAt', sorter: true, width: 150, render: fmt },
      { title: t('waybillBills.driverName'), dataIndex: 'driverName', key: 'driverName', width: 100 },
    );
    if (view === 'archive') {
      cols.push(
        { title: t('waybillBills.closedAt'), dataIndex: 'closedAt', key: 'closedAt', sorter: true, width: 150, render: fmt },
        { title: t('waybillBills.shippedV20'), dataIndex: 'shippedV20', key: 'shippedV20', width: 120 },
        { title: t('waybillBills.receivedV20'), dataIndex: 'receivedV20', key: 'receivedV20', width: 120 },
        { title: t('waybillBills.lossL'), dataIndex: 'lossL', key: 'lossL', sorter: true, width: 100 },
        { title: t('waybillBills.lossRatePct'), dataIndex: 'lossRatePct', key: 'lossRatePct', width: 100, render: (v: number) => v.toFixed(3) },
        { title: t('waybillBills.allowedPct'), dataIndex: 'allowedPct', key: 'allowedPct', width: 110, render: (v: number) => v.toFixed(3) },
      );
    }
    cols.push({
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      width: carrier ? 260 : 90,
      render: (_, w) => (
        <Space size={0} wrap>
          {carrier ? (
            <AuthButton code="print">
              <Button type="link" size="small" onClick={() => setPrinting(w.id)} data-testid={`wb-print-${w.id}`}>
                {t('waybillBills.print.open')}
              </Button>
            </AuthButton>
          ) : (
            <Button type="link" size="small" onClick={() => setPrinting(w.id)} data-testid={`wb-print-${w.id}`}>
              {t('waybillBills.print.open')}
            </Button>
          )}
          {carrier && w.state === 'PLANNED' && (
            <>
              <AuthButton code="dispatch">
                <Button type="link" size="small" onClick={() => dispatch(w, reload)} data-testid={`wb-dispatch-${w.id}`}>
                  {t('waybillBills.dispatch')}
                </Button>
              </AuthButton>
              <AuthButton code="edit">
                <Button type="link" size="small" onClick={() => void edit(w.id)}>
                  {t('common.edit')}
                </Button>
              </AuthButton>
              <AuthButton code="delete">
                <ConfirmDelete
                  run={() => deleteWaybill(w.id)}
                  onDone={() => {
                    reload();
                    void counts.refetch();
                  }}
                />
              </AuthButton>
            </>
          )}
          {carrier && CANCELLABLE.includes(w.state) && (
            <AuthButton code="cancel">
              <Button type="link" size="small" danger onClick={() => cancel(w, reload)}>
                {t('waybillBills.cancel')}
              </Button>
            </AuthButton>
          )}
        </Space>
      ),
    });
    return cols;
  };

  const o = opts.data;
  return (
    <ListPage<Waybill, WaybillFilters>
      queryKey={`waybill-${view}`}
      rowKey="id"
      title={t(`waybillBills.view.${view}`)}
      fetch={(q) => pageWaybills(view, q)}
      toFilters={toFilters}
      filters={
        <>
          <Form.Item name="no" label={t('waybillBills.no')}>
            <Input allowClear style={{ width: 170 }} data-testid="wb-filter-no" />
          </Form.Item>
          <Form.Item name="plate" label={t('waybillBills.plate')}>
            <Input allowClear style={{ width: 130 }} />
          </Form.Item>
          <Form.Item name="state" label={t('waybillBills.state')}>
            <Select allowClear placeholder={t('common.all')} style={{ width: 130 }} options={states.map((s) => ({ value: s, label: t(`waybillCommon.state.${s}`) }))} />
          </Form.Item>
          {carrier && (
            <>
              <Form.Item name="depotId" label={t('waybillBills.depot')}>
                <Select allowClear showSearch optionFilterProp="label" placeholder={t('common.all')} style={{ width: 180 }} options={o?.depots.map((d) => ({ value: d.id, label: d.name }))} />
              </Form.Item>
              <Form.Item name="stationId" label={t('waybillBills.destination')}>
                <Select allowClear showSearch optionFilterProp="label" placeholder={t('common.all')} style={{ width: 180 }} options={o?.stations.map((d) => ({ value: d.id, label: d.name }))} />
              </Form.Item>
            </>
          )}
          <Form.Item name="range" label={t('waybillBills.plannedLoadAt')}>
            <TimeRangePicker showTime includeOptional />
          </Form.Item>
        </>
      }
      exportRequest={(f) => ({ url: EXPORT_URL[view], method: 'POST', data: f })}
      exportCode="export"
      toolbar={(ctx) => (
        <>
          {carrier && (
            <>
              <AuthButton code="add">
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="wb-add">
                  {t('waybillBills.add')}
                </Button>
              </AuthButton>
              <AuthButton code="import">
                <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
                  {t('waybillBills.import.open')}
                </Button>
              </AuthButton>
              <StateChips ctx={ctx} />
            </>
          )}
          {editing && (
            <WaybillForm
              editing={editing === 'new' ? null : editing}
              onClose={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                ctx.reload();
                void counts.refetch();
              }}
            />
          )}
          {importing && (
            <ImportModal
              onClose={() => setImporting(false)}
              onSaved={() => {
                setImporting(false);
                ctx.reload();
                void counts.refetch();
              }}
            />
          )}
          {printing !== null && <PrintView id={printing} onClose={() => setPrinting(null)} />}
        </>
      )}
      columns={columns}
    />
  );
}

/** The carrier view's state chips: how many waybills each state has under the other filters; a click filters by it. */
function StateChips({ ctx }: { ctx: ListContext<WaybillFilters> }) {
  const { t } = useTranslation();
  const others = { ...ctx.filters, state: undefined };
  const counts = useQuery({ queryKey: ['waybillCounts', others], queryFn: () => stateCounts(others) });
  const pick = (state?: string) => {
    ctx.form.setFieldsValue({ state } as never);
    ctx.form.submit();
  };
  const all = Object.values(counts.data ?? {}).reduce((a, b) => a + b, 0);
  return (
    <div className="wb-state-chips" data-testid="wb-chips">
      <Tag.CheckableTag checked={!ctx.filters.state} onChange={() => pick(undefined)}>
        {t('common.all')} {all}
      </Tag.CheckableTag>
      {STATES.filter((s) => counts.data?.[s]).map((s) => (
        <Tag.CheckableTag key={s} checked={ctx.filters.state === s} data-testid={`wb-chip-${s}`} onChange={() => pick(s)}>
          {t(`waybillCommon.state.${s}`)} {counts.data?.[s]}
        </Tag.CheckableTag>
      ))}
    </div>
  );
}
