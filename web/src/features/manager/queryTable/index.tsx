import { Form, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hbaseTable, RAW_TABLES, tableExport, type RawTable, type TableQuery, type TableRow } from '../../../api/history';
import type { Page } from '../../../api/types';
import { ListPage } from '../../../components/ListPage';
import { historyListProps, keyed, type Keyed, type TargetFilters } from '../history/filters';
import { HistoryFields } from '../history/HistoryFields';
import { rowKeyOf, tableColumns } from './columns';
import { RowDrawer } from './RowDrawer';

type TableFilters = TargetFilters & { table: RawTable };
type KeyedRow = Keyed<TableRow>;

/** Fetches a page of a table and gives each row a key (positions and tank states have no id). */
async function fetchTable(q: TableQuery): Promise<Page<KeyedRow>> {
  return keyed(await hbaseTable<TableRow>(q), (r) => rowKeyOf(q.table, r));
}

/** 原始库管理: any table of the raw store for a vehicle or terminal and a time range; a row opens in full. */
export default function QueryTablePage() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<{ table: RawTable; row: TableRow; target: TargetFilters } | null>(null);
  return (
    <>
      <ListPage<KeyedRow, TableFilters>
        queryKey="queryTable"
        rowKey="_key"
        fetch={(q) => fetchTable(q as TableQuery)}
        {...historyListProps<TableFilters>(t('history.pickVehicle'), { initial: { table: 'positions' } })}
        exportRequest={tableExport}
        filters={
          <>
            <Form.Item name="table" label={t('queryTable.table')}>
              <Select style={{ width: 150 }} data-testid="table-select" options={RAW_TABLES.map((v) => ({ value: v, label: t(`queryTable.table_${v}`) }))} />
            </Form.Item>
            <HistoryFields />
          </>
        }
        tableProps={{ scroll: { x: 1200 } }}
        columns={({ filters }) => {
          const table = filters.table ?? 'positions';
          return [
            ...(tableColumns(t, table) as ColumnsType<KeyedRow>),
            {
              title: t('common.actions'),
              key: 'actions',
              width: 90,
              fixed: 'right' as const,
              render: (_: unknown, r: TableRow) => (
                <a onClick={() => setOpen({ table, row: r, target: filters })} data-testid="row-detail">
                  {t('queryTable.view')}
                </a>
              ),
            },
          ];
        }}
      />
      <RowDrawer table={open?.table ?? 'positions'} row={open?.row ?? null} target={open?.target ?? {}} onClose={() => setOpen(null)} />
    </>
  );
}
