import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BusinessError } from '../../../api/client';
import type { Group } from '../../../api/types';
import { renderPage } from '../testing';
import { brandingBody } from './BrandingForm';
import { filterTree, pathTo } from './groupTree';
import GroupInfoPage from '.';

const g = (id: number, parentId: number | null, name: string, children: Group[] = []): Group => ({
  id, parentId, name, code: `G${id}`, contact: '', phone: '', address: '', remark: '', title: '', logo: '', theme: '', children,
});
const tree = [g(1, null, '总部', [g(2, 1, '华东分公司', [g(4, 2, '上海车队')]), g(3, 1, '华南分公司')])];

const api = vi.hoisted(() => ({
  groupTrees: vi.fn(), addGroup: vi.fn(), addChildGroup: vi.fn(), editGroup: vi.fn(), deleteGroup: vi.fn(), findParents: vi.fn(),
  findAllChildren: vi.fn(), findAllChildrenPage: vi.fn(), editImgAndTittle: vi.fn(),
}));
vi.mock('../../../api/group', () => api);
const session = vi.hoisted(() => ({ refreshSession: vi.fn() }));
vi.mock('../../../app/session', () => session);

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  session.refreshSession.mockReset().mockResolvedValue(null);
  api.groupTrees.mockResolvedValue(tree);
  api.findAllChildrenPage.mockResolvedValue({ list: [g(2, 1, '华东分公司'), g(3, 1, '华南分公司')], total: 2, pageNum: 1, pageSize: 10 });
});

describe('group tree helpers', () => {
  it('filters by name keeping ancestors', () => {
    const out = filterTree(tree, '上海');
    const names = (nodes: typeof out) => nodes.map((x) => x.name);
    expect(names(out)).toEqual(['总部']);
    expect(names(out[0].children!)).toEqual(['华东分公司']);
    expect(names(out[0].children![0].children!)).toEqual(['上海车队']);
    expect(filterTree(tree, 'nothing')).toEqual([]);
  });
  it('finds the path to a group', () => {
    expect(pathTo(tree, 4)).toEqual([1, 2, 4]);
    expect(pathTo(tree, 99)).toEqual([]);
  });
  it.each([
    ['unchanged logo is not sent', undefined, { id: 5, title: 'T', theme: 'escort' }],
    ['cleared logo is sent as empty', '', { id: 5, title: 'T', theme: 'escort', logo: '' }],
    ['new logo is sent as a data URL', 'data:image/png;base64,AAA=', { id: 5, title: 'T', theme: 'escort', logo: 'data:image/png;base64,AAA=' }],
  ])('brandingBody: %s', (_n, logo, want) => {
    expect(brandingBody(5, ' T ', 'escort', logo)).toEqual(want);
  });
});

describe('groupInfo page', { timeout: 60_000 }, () => {
  it('shows the tree, the selected group and its subtree page', async () => {
    renderPage(<GroupInfoPage />, 'groupInfo', ['add', 'addChildren', 'edit', 'delete', 'logo']);
    expect(await screen.findByRole('button', { name: /新\s*增$/ })).toBeTruthy(); // top-level add: caller's group 1 has no parent
    await waitFor(() => expect(api.findAllChildrenPage).toHaveBeenCalledWith({ id: 1, pageNum: 1, pageSize: 10 }));
    expect((await screen.findAllByText('华南分公司')).length).toBeGreaterThan(0);
  });

  it('deletes the selected group after confirmation and shows the server refusal', async () => {
    api.deleteGroup.mockRejectedValue(new BusinessError('请先删除下级组织', { code: 0, message: '请先删除下级组织', success: 0, data: null }));
    renderPage(<GroupInfoPage />, 'groupInfo', ['delete']);
    await screen.findAllByText('华东分公司');
    fireEvent.click(screen.getAllByText('华东分公司')[0]); // select in the tree
    fireEvent.click(await screen.findByRole('button', { name: /删\s*除/ }));
    expect(await screen.findByText('确定要删除该数据吗？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.deleteGroup).toHaveBeenCalledWith(2));
    expect(await screen.findByText('请先删除下级组织', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('adds a child group under the selected group', async () => {
    api.addChildGroup.mockResolvedValue(g(9, 1, '西北分公司'));
    renderPage(<GroupInfoPage />, 'groupInfo', ['addChildren']);
    fireEvent.click(await screen.findByRole('button', { name: /新增下级/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('组织名称不能为空', {}, { timeout: 3000 })).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('组织名称'), { target: { value: '西北分公司' } });
    fireEvent.change(within(dialog).getByLabelText('联系人'), { target: { value: '王五' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(api.addChildGroup).toHaveBeenCalledWith({ name: '西北分公司', code: undefined, contact: '王五', phone: '', address: '', remark: '', parentId: 1 }),
    );
  });

  it('refuses a logo over 256 KB without calling the server, and saves title and theme', async () => {
    api.editImgAndTittle.mockResolvedValue(tree[0]);
    renderPage(<GroupInfoPage />, 'groupInfo', ['logo']);
    fireEvent.click(await screen.findByRole('button', { name: /标题与标志/ }));
    const dialog = await screen.findByRole('dialog');
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    const big = new File([new Uint8Array(300 * 1024)], 'big.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText('图片为 300 KB，不能超过 256 KB')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('平台标题'), { target: { value: '华东智慧物流' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.editImgAndTittle).toHaveBeenCalledWith({ id: 1, title: '华东智慧物流', theme: '' }));
    await waitFor(() => expect(session.refreshSession).toHaveBeenCalled()); // group 1 is on the signed-in user's path
  });
});
