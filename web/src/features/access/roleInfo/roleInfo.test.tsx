import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BusinessError } from '../../../api/client';
import type { Group, MenuNode, Role } from '../../../api/types';
import { renderPage } from '../testing';
import RoleInfoPage from '.';

const roles: Role[] = [
  { id: 3, name: '调度员', remark: '日常调度', groupId: 1, groupName: '总部', userCount: 2, createdAt: '2026-01-02 03:04:05' },
];
const tree: MenuNode[] = [
  { name: 'access', title: '系统设置', code: '06', children: [
    { name: 'userInfo', title: '用户管理', code: '06-08', children: [
      { name: 'userInfo-add', title: '新增', code: '06-08-01' },
      { name: 'userInfo-delete', title: '删除', code: '06-08-03' },
    ] },
    { name: 'operationLog', title: '操作日志', code: '06-03', children: [] },
  ] },
];

const api = vi.hoisted(() => ({
  pageRoles: vi.fn(), roleDetail: vi.fn(), insertRole: vi.fn(), updateRole: vi.fn(), deleteRoles: vi.fn(), grantableTree: vi.fn(), listRoles: vi.fn(),
}));
vi.mock('../../../api/role', () => api);
vi.mock('../../../api/group', () => ({
  groupTrees: vi.fn(async (): Promise<Group[]> => [{ id: 1, parentId: null, name: '总部', code: 'G1', contact: '', phone: '', address: '', remark: '', title: '', logo: '', theme: '', children: [] }]),
}));

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageRoles.mockResolvedValue({ list: roles, total: 1, pageNum: 1, pageSize: 10 });
  api.grantableTree.mockResolvedValue(tree);
});

function checkNode(dialog: HTMLElement, title: string) {
  const node = within(dialog).getByText(title).closest('.ant-tree-treenode')!;
  fireEvent.click(node.querySelector('.ant-tree-checkbox')!);
}

describe('roleInfo page', { timeout: 60_000 }, () => {
  it('saves the checked button together with its page and module codes', async () => {
    api.insertRole.mockResolvedValue(roles[0]);
    renderPage(<RoleInfoPage />, 'roleInfo', ['add', 'edit', 'delete']);
    expect(await screen.findByText('调度员')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /新增角色/ }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('用户管理');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('角色名称不能为空', {}, { timeout: 3000 })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '全部展开' }));

    fireEvent.change(within(dialog).getByLabelText('角色名称'), { target: { value: '安全员' } });
    checkNode(dialog, '新增');
    checkNode(dialog, '操作日志');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.insertRole).toHaveBeenCalledTimes(1));
    expect(api.insertRole).toHaveBeenCalledWith({ name: '安全员', remark: '', groupId: 1, resourceCodes: ['06', '06-08', '06-08-01', '06-03'] });
  });

  it('edits a role starting from its saved codes', async () => {
    api.roleDetail.mockResolvedValue({ ...roles[0], resourceCodes: ['06', '06-08', '06-08-03'] });
    api.updateRole.mockResolvedValue(roles[0]);
    renderPage(<RoleInfoPage />, 'roleInfo', ['edit']);
    const row = (await screen.findByText('调度员')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog');
    const nameLabel = '角色名称';
    const dispatcher = '调度员';
    const nameInput = () => within(dialog).getByLabelText(nameLabel) as HTMLInputElement;
    await waitFor(() => expect(nameInput().value).toBe(dispatcher));
    checkNode(dialog, '用户管理'); // unchecks the page and its button, keeps the module
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.updateRole).toHaveBeenCalledWith({ id: 3, name: '调度员', remark: '日常调度', groupId: 1, resourceCodes: ['06'] }));
  });

  it('deletes after confirmation and shows a refusal from the server', async () => {
    api.deleteRoles.mockRejectedValue(new BusinessError('该角色已分配给用户，不能删除', { code: 0, message: '该角色已分配给用户，不能删除', success: 0, data: null }));
    renderPage(<RoleInfoPage />, 'roleInfo', ['delete']);
    const row = (await screen.findByText('调度员')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '删除' }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.deleteRoles).toHaveBeenCalledWith([3]));
    expect(await screen.findByText('该角色已分配给用户，不能删除', {}, { timeout: 3000 })).toBeTruthy();
  });
});
