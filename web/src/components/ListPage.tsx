import { DownloadOutlined, ReloadOutlined, SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Form, Space, Table } from 'antd';
import type { FormInstance, TableProps } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { exportFile, type ExportRequest } from '../api/export';
import type { Page, PageQuery } from '../api/types';
import { useDefaultPageSize } from '../app/prefs';
import { AuthButton } from './AuthButton';

export interface ListContext<F> {
  /** Current applied filters. */
  filters: F;
  /** Refetch the current page. */
  reload: () => void;
  selectedRowKeys: Key[];
  /** Empty the row selection (e.g. after a batch delete). */
  clearSelection: () => void;
  form: FormInstance<F>;
}

export interface ListPageProps<T, F extends object> {
  /** TanStack Query key prefix, unique per page, e.g. 'userInfo'. */
  queryKey: string;
  /** Server paging call: receives pageNum/pageSize/sortField/sortOrder plus the filters. */
  fetch: (q: PageQuery & F) => Promise<Page<T>>;
  columns: ColumnsType<T> | ((ctx: ListContext<F>) => ColumnsType<T>);
  rowKey: keyof T & string;
  /** Form.Items of the filter bar (inline). Values are passed to fetch as filters. */
  filters?: ReactNode;
  initialFilters?: Partial<F>;
  /** Normalise form values before they become filters (e.g. split a TimeRangePicker value). */
  toFilters?: (values: Record<string, unknown>) => F;
  /** Toolbar buttons (left). Wrap each in <AuthButton code="add">. */
  toolbar?: (ctx: ListContext<F>) => ReactNode;
  /** Export: the request for the current filters; shown when the `exportCode` button is authorised. */
  exportRequest?: (filters: F) => ExportRequest;
  exportCode?: string;
  /** Show the export button without a button permission (pages whose export is part of reading them). */
  exportAlways?: boolean;
  /** Query only when this holds for the filters (e.g. a vehicle was chosen); otherwise the table shows `idleText`. */
  enabled?: (filters: F) => boolean;
  /** Empty-table text while `enabled` does not hold. */
  idleText?: ReactNode;
  selectable?: boolean;
  title?: ReactNode;
  tableProps?: Omit<TableProps<T>, 'columns' | 'dataSource' | 'rowKey' | 'pagination' | 'onChange'>;
}

/** Form values without the empty ones, through the page's toFilters. */
function toFiltersOf(toFilters: ((values: Record<string, unknown>) => unknown) | undefined, values: Record<string, unknown>): unknown {
  const clean = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  return toFilters ? toFilters(clean) : clean;
}

/**
 * The paging after a table change: a new sort order starts again at page 1 (page 4 of another order is
 * someone else's page 4); a page or size change keeps the order.
 */
export function nextPaging(prev: PageQuery, next: { current?: number; pageSize?: number; sortField?: string; sortOrder?: PageQuery['sortOrder'] }): PageQuery {
  const sortChanged = (prev.sortField ?? undefined) !== next.sortField || (prev.sortOrder ?? undefined) !== next.sortOrder;
  const sizeChanged = (next.pageSize ?? 10) !== prev.pageSize;
  return {
    pageNum: sortChanged || sizeChanged ? 1 : (next.current ?? 1),
    pageSize: next.pageSize ?? 10,
    sortField: next.sortField,
    sortOrder: next.sortOrder,
  };
}

/**
 * A list's own paging: the page size its user chose on it (none: the default, i.e. the user's
 * preference), and the size its page number was chosen at.
 */
export interface OwnPaging {
  pageNum: number;
  /** The size chosen on this list; undefined follows the default. */
  size?: number;
  /** The page size pageNum belongs to (page 3 of 10 is not page 3 of 50). */
  at: number;
  sortField?: string;
  sortOrder?: PageQuery['sortOrder'];
}

/**
 * The paging in force: the list's own size wins over the default (the preference, which may change
 * while the list is open); a page number chosen at another size starts again at 1.
 */
export function pagingInForce(own: OwnPaging, defaultSize: number): PageQuery {
  const pageSize = own.size ?? defaultSize;
  return { pageNum: own.at === pageSize ? own.pageNum : 1, pageSize, sortField: own.sortField, sortOrder: own.sortOrder };
}

/** A list's own paging after a table change (nextPaging on the paging in force). */
export function nextOwnPaging(own: OwnPaging, inForce: PageQuery, next: Parameters<typeof nextPaging>[1]): OwnPaging {
  const p = nextPaging(inForce, next);
  return { pageNum: p.pageNum, size: p.pageSize !== inForce.pageSize ? p.pageSize : own.size, at: p.pageSize, sortField: p.sortField, sortOrder: p.sortOrder };
}

/** Width of the columns (unsized ones count DEFAULT_COLUMN_WIDTH): the table scrolls rather than squeeze them under a fixed column. */
export const DEFAULT_COLUMN_WIDTH = 120;
export function columnsWidth(columns: readonly { width?: number | string }[]): number {
  return columns.reduce((n, c) => n + (typeof c.width === 'number' ? c.width : DEFAULT_COLUMN_WIDTH), 0);
}

/** The shared list-page pattern: filter form + toolbar + server-paged/sorted table + export. */
export function ListPage<T extends object, F extends object = Record<string, unknown>>(props: ListPageProps<T, F>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<F>();
  // the initial filters go through toFilters like submitted ones (e.g. a default time range)
  const [filters, setFilters] = useState<F>(() => toFiltersOf(props.toFilters, (props.initialFilters ?? {}) as Record<string, unknown>) as F);
  const defaultSize = useDefaultPageSize();
  const [own, setOwn] = useState<OwnPaging>(() => ({ pageNum: 1, at: defaultSize }));
  const paging = pagingInForce(own, defaultSize);
  const [selectedRowKeys, setSelected] = useState<Key[]>([]);
  // a selection belongs to the rows on screen unless the user asked to keep it across pages
  const [acrossPages, setAcrossPages] = useState(false);
  const [exporting, setExporting] = useState(false);

  const ready = props.enabled ? props.enabled(filters) : true;
  const query = useQuery({
    queryKey: [props.queryKey, paging, filters],
    queryFn: () => props.fetch({ ...paging, ...filters }),
    placeholderData: keepPreviousData,
    enabled: ready,
  });

  const ctx: ListContext<F> = { filters, reload: () => void query.refetch(), selectedRowKeys, clearSelection: () => setSelected([]), form };
  const columns = typeof props.columns === 'function' ? props.columns(ctx) : props.columns;

  const apply = (values: Record<string, unknown>) => {
    setFilters(toFiltersOf(props.toFilters, values) as F);
    setOwn((p) => ({ ...p, pageNum: 1 }));
    if (!acrossPages) setSelected([]);
  };

  const onTableChange: TableProps<T>['onChange'] = (pagination, _f, sorter) => {
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T>;
    const field = s?.order ? String(s.columnKey ?? s.field ?? '') : undefined;
    const next = nextOwnPaging(own, paging, { current: pagination.current, pageSize: pagination.pageSize, sortField: field || undefined, sortOrder: s?.order ?? undefined });
    if (!acrossPages && next.pageNum !== paging.pageNum) setSelected([]);
    setOwn(next);
  };

  const doExport = async () => {
    if (!props.exportRequest) return;
    setExporting(true);
    try {
      await exportFile(props.exportRequest(filters));
    } catch {
      // reported by the client
    } finally {
      setExporting(false);
    }
  };

  const data = query.data;
  return (
    <div className="tw-page tw-list-page">
      {props.filters && (
        <Card variant="borderless" style={{ marginBottom: 12 }} styles={{ body: { paddingBottom: 0 } }}>
          <Form<F> form={form} layout="inline" initialValues={props.initialFilters} onFinish={(v) => apply(v as Record<string, unknown>)} className="tw-filter-form">
            {props.filters}
            <Form.Item>
              <Space>
                <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
                  {t('common.search')}
                </Button>
                <Button
                  icon={<UndoOutlined />}
                  onClick={() => {
                    form.resetFields();
                    apply((props.initialFilters ?? {}) as Record<string, unknown>);
                  }}
                >
                  {t('common.reset')}
                </Button>
              </Space>
            </Form.Item>
          </Form>
        </Card>
      )}
      <Card variant="borderless" title={props.title}>
        <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12, gap: 8 }}>
          <Space wrap>{props.toolbar?.(ctx)}</Space>
          <Space>
            {props.selectable && (
              <Checkbox
                checked={acrossPages}
                data-testid="select-across-pages"
                onChange={(e) => {
                  setAcrossPages(e.target.checked);
                  if (!e.target.checked) setSelected([]);
                }}
              >
                {selectedRowKeys.length ? t('common.selectAcrossPagesN', { n: selectedRowKeys.length }) : t('common.selectAcrossPages')}
              </Checkbox>
            )}
            {props.exportRequest &&
              (props.exportAlways ? (
                <Button icon={<DownloadOutlined />} loading={exporting} disabled={!ready} onClick={() => void doExport()} data-testid="list-export">
                  {t('common.export')}
                </Button>
              ) : (
                <AuthButton code={props.exportCode ?? 'export'}>
                  <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()}>
                    {t('common.export')}
                  </Button>
                </AuthButton>
              ))}
            <Button icon={<ReloadOutlined />} aria-label={t('common.refresh')} disabled={!ready} onClick={() => void query.refetch()} />
          </Space>
        </div>
        {query.isError && ready && (
          <Alert type="error" showIcon style={{ marginBottom: 12 }} message={t('common.requestFailed')} description={query.error.message || undefined} />
        )}
        <Table<T>
          size="middle"
          locale={{ emptyText: ready ? t('common.empty') : (props.idleText ?? t('common.empty')) }}
          {...props.tableProps}
          scroll={{ ...props.tableProps?.scroll, x: Math.max(Number(props.tableProps?.scroll?.x) || 0, columnsWidth(columns) + (props.selectable ? 48 : 0)) }}
          rowKey={props.rowKey}
          columns={columns}
          dataSource={ready ? (data?.list ?? []) : []}
          loading={ready && query.isFetching}
          onChange={onTableChange}
          rowSelection={props.selectable ? { selectedRowKeys, onChange: setSelected, preserveSelectedRowKeys: acrossPages } : undefined}
          pagination={{
            current: paging.pageNum,
            pageSize: paging.pageSize,
            total: ready ? (data?.total ?? 0) : 0,
            showSizeChanger: true,
            showTotal: (total) => t('common.total', { total }),
          }}
        />
      </Card>
    </div>
  );
}
