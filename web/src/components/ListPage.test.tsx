import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageQuery } from '../api/types';
import { renderPage } from '../features/access/testing';
import { SLOW } from '../features/manager/history/testing';
import { columnsWidth, DEFAULT_COLUMN_WIDTH, ListPage, nextPaging } from './ListPage';

type Row = { id: number; name: string };
const rows = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `车辆${i + 1}` }));

function page() {
  const fetch = vi.fn(async (q: PageQuery) => {
    const from = (q.pageNum - 1) * q.pageSize;
    return { list: rows.slice(from, from + q.pageSize), total: rows.length, pageNum: q.pageNum, pageSize: q.pageSize };
  });
  renderPage(
    <ListPage<Row>
      queryKey="listPageTest"
      rowKey="id"
      fetch={fetch}
      selectable
      toolbar={({ selectedRowKeys }) => <span data-testid="selected">{selectedRowKeys.join(',')}</span>}
      columns={[{ title: '名称', dataIndex: 'name', key: 'name', sorter: true, width: 200 }]}
    />,
    'listPageTest',
    [],
  );
  return fetch;
}

const rowOf = async (name: string) => (await screen.findByText(name, {}, SLOW)).closest('tr')!;
const toPage = (n: number) => fireEvent.click(screen.getByTitle(String(n)));
const selected = () => screen.getByTestId('selected').textContent;

describe('the shared list', { timeout: 60_000 }, () => {
  afterEach(cleanup);
  it('a new sort order starts again at page 1', async () => {
    const fetch = page();
    await rowOf('车辆1');
    toPage(2);
    await rowOf('车辆11');
    expect(fetch).toHaveBeenLastCalledWith(expect.objectContaining({ pageNum: 2 }));
    fireEvent.click(document.querySelector('th.ant-table-column-has-sorters')!);
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith(expect.objectContaining({ pageNum: 1, sortField: 'name', sortOrder: 'ascend' })), SLOW);
  });

  it('a selection is cleared on a page change, unless the user chose to select across pages', async () => {
    page();
    fireEvent.click(within(await rowOf('车辆1')).getByRole('checkbox'));
    expect(selected()).toBe('1');
    toPage(2);
    await rowOf('车辆11');
    expect(selected()).toBe('');

    fireEvent.click(screen.getByLabelText('跨页选择'));
    fireEvent.click(within(await rowOf('车辆11')).getByRole('checkbox'));
    toPage(3);
    fireEvent.click(within(await rowOf('车辆21')).getByRole('checkbox'));
    expect(selected()).toBe('11,21');
    expect(screen.getByText('跨页选择（已选 2 条）')).toBeTruthy();
  });

  it('nextPaging keeps the page only when the order and size are unchanged', () => {
    const prev = { pageNum: 3, pageSize: 10 };
    expect(nextPaging(prev, { current: 4, pageSize: 10 })).toEqual({ pageNum: 4, pageSize: 10, sortField: undefined, sortOrder: undefined });
    expect(nextPaging(prev, { current: 3, pageSize: 10, sortField: 'name', sortOrder: 'ascend' }).pageNum).toBe(1);
    expect(nextPaging({ ...prev, sortField: 'name', sortOrder: 'ascend' }, { current: 3, pageSize: 10, sortField: 'name', sortOrder: 'descend' }).pageNum).toBe(1);
    expect(nextPaging(prev, { current: 3, pageSize: 20 }).pageNum).toBe(1);
  });

  it('columnsWidth counts unsized columns so a fixed column never sits on data', () => {
    expect(columnsWidth([{ width: 100 }, {}, { width: '20%' }, { width: 240 }])).toBe(340 + 2 * DEFAULT_COLUMN_WIDTH);
  });
});
