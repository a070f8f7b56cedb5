import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageQuery, Session } from '../api/types';
import { renderPage, testSession } from '../features/access/testing';
import { SLOW } from '../features/manager/history/testing';
import { columnsWidth, DEFAULT_COLUMN_WIDTH, ListPage, nextOwnPaging, nextPaging, pagingInForce } from './ListPage';

type Row = { id: number; name: string };
const rows = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `车辆${i + 1}` }));

function page(session: Session = testSession) {
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
    session,
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

  it('the default page size is the preference; a size chosen on the list wins over it, a page number chosen at another size starts at 1', () => {
    const own = { pageNum: 1, at: 10 };
    expect(pagingInForce(own, 20)).toEqual({ pageNum: 1, pageSize: 20, sortField: undefined, sortOrder: undefined });
    // page 2 at 20 a page, then the preference becomes 50: page 1 at 50
    const onPage2 = nextOwnPaging(own, pagingInForce(own, 20), { current: 2, pageSize: 20 });
    expect(onPage2).toMatchObject({ pageNum: 2, size: undefined, at: 20 });
    expect(pagingInForce(onPage2, 20).pageNum).toBe(2);
    expect(pagingInForce(onPage2, 50)).toMatchObject({ pageNum: 1, pageSize: 50 });
    // the user picks 100 on the list: it stays whatever the preference says
    const chosen = nextOwnPaging(onPage2, pagingInForce(onPage2, 20), { current: 2, pageSize: 100 });
    expect(chosen).toMatchObject({ pageNum: 1, size: 100, at: 100 });
    expect(pagingInForce(chosen, 10).pageSize).toBe(100);
    expect(pagingInForce(chosen, 50).pageSize).toBe(100);
  });

  it('asks for the preferred page size first', async () => {
    const fetch = page({ ...testSession, prefs: { theme: '', mapLayer: '', pageSize: 20 } });
    await rowOf('车辆20');
    expect(fetch.mock.calls[0][0]).toMatchObject({ pageNum: 1, pageSize: 20 });
    expect(screen.queryByText('车辆21')).toBeNull();
  });

  it('columnsWidth counts unsized columns so a fixed column never sits on data', () => {
    expect(columnsWidth([{ width: 100 }, {}, { width: '20%' }, { width: 240 }])).toBe(340 + 2 * DEFAULT_COLUMN_WIDTH);
  });
});
