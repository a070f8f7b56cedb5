import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Group, Page, Role, User } from '../../../api/types';
import { renderPage } from '../testing';
import UserInfoPage from '.';

const users: User[] = [
  { id: 7, name: 'zhang', nickName: '张三', phone: '13800000000', email: 'z@x.cn', platform: false, groupId: 2, groupName: '华东分公司', roleIds: [3], roleNames: ['调度员'], status: 1, expireAt: null, lastLoginAt: null, createdAt: '2026-01-02 03:04:05' },
  { id: 8, name: 'li', nickName: '李四', phone: '', email: '', platform: false, groupId: 2, groupName: '华东分公司', roleIds: [], roleNames: [], status: 0, expireAt: null, lastLoginAt: null, createdAt: '2026-01-03 03:04:05' },
];

const api = vi.hoisted(() => ({
  pageUsers: vi.fn(),
  insertUser: vi.fn(),
  updateUser: vi.fn(),
  deleteUsers: vi.fn(),
  resetPassword: vi.fn(),
  updateUserStatus: vi.fn(),
  unlockUser: vi.fn(),
  userDetail: vi.fn(),
}));
vi.mock('../../../api/user', async (orig) => ({ ...(await orig<typeof import('../../../api/user')>()), ...api }));
vi.mock('../../../api/role', () => ({ listRoles: vi.fn(async (): Promise<Role[]> => [{ id: 3, name: '调度员', remark: '', groupId: 1, groupName: '总部', userCount: 1, createdAt: '' }]) }));
vi.mock('../../../api/group', () => ({
  groupTrees: vi.fn(async (): Promise<Group[]> => [
    { id: 1, parentId: null, name: '总部', code: 'G1', contact: '', phone: '', address: '', remark: '', title: '', logo: '', theme: '', children: [
      { id: 2, parentId: 1, name: '华东分公司', code: 'G2', contact: '', phone: '', address: '', remark: '', title: '', logo: '', theme: '', children: [] },
    ] },
  ]),
}));

const ALL = ['add', 'edit', 'delete', 'resetPassword', 'status', 'detail'];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageUsers.mockResolvedValue({ list: users, total: 2, pageNum: 1, pageSize: 10 } satisfies Page<User>);
});

async function openAdd() {
  renderPage(<UserInfoPage />, 'userInfo', ALL);
  await screen.findByText('zhang');
  fireEvent.click(screen.getByRole('button', { name: /新增用户/ }));
  return await screen.findByRole('dialog');
}

describe('userInfo page', { timeout: 60_000 }, () => {
  it('lists users with group, roles and status; hides buttons that are not authorised', async () => {
    renderPage(<UserInfoPage />, 'userInfo', ['detail']);
    expect(await screen.findByText('zhang')).toBeTruthy();
    expect(screen.getByText('调度员')).toBeTruthy();
    expect(screen.getAllByText('停用').length).toBeGreaterThan(0); // status tag without the status button
    expect(screen.queryByRole('button', { name: /新增用户/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(api.pageUsers).toHaveBeenCalledWith({ pageNum: 1, pageSize: 10 });
  });

  it('validates the add form with the spec texts', async () => {
    const dialog = await openAdd();
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('账号不能为空')).toBeTruthy();
    expect(within(dialog).getByText('密码不能为空')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('密码'), { target: { value: 'abc123' } });
    fireEvent.change(within(dialog).getByLabelText('确认密码'), { target: { value: 'abc124' } });
    fireEvent.change(within(dialog).getByLabelText('手机号'), { target: { value: '2380000000' } });
    fireEvent.change(within(dialog).getByLabelText('邮箱'), { target: { value: 'not-mail' } });
    fireEvent.change(within(dialog).getByLabelText('账号'), { target: { value: 'x' } });
    expect(await within(dialog).findByText('两次输入的密码不一致')).toBeTruthy();
    expect(await within(dialog).findByText('手机号格式不正确')).toBeTruthy();
    expect(await within(dialog).findByText('邮箱格式不正确')).toBeTruthy();
    expect(await within(dialog).findByText('账号只能包含字母、数字和 _ . - @，长度为3到32个字符')).toBeTruthy();
    expect(api.insertUser).not.toHaveBeenCalled();
  });

  it('inserts a valid user with the defaults (enabled, own group, platform false)', async () => {
    api.insertUser.mockResolvedValue(users[0]);
    const dialog = await openAdd();
    fireEvent.change(within(dialog).getByLabelText('账号'), { target: { value: ' wang ' } });
    fireEvent.change(within(dialog).getByLabelText('密码'), { target: { value: 'abc123' } });
    fireEvent.change(within(dialog).getByLabelText('确认密码'), { target: { value: 'abc123' } });
    fireEvent.change(within(dialog).getByLabelText('手机号'), { target: { value: '13912345678' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.insertUser).toHaveBeenCalledTimes(1));
    expect(api.insertUser).toHaveBeenCalledWith({
      name: 'wang', nickName: '', password: 'abc123', phone: '13912345678', email: '', platform: false,
      groupId: 1, roleIds: [], status: 1, expireAt: null,
    });
  });

  it('deletes a row only after confirmation, with its id', async () => {
    api.deleteUsers.mockResolvedValue(1);
    renderPage(<UserInfoPage />, 'userInfo', ALL);
    const row = (await screen.findByText('li')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('确定要删除该数据吗？')).toBeTruthy();
    expect(api.deleteUsers).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.deleteUsers).toHaveBeenCalledWith([8]));
    expect(await screen.findByText('删除成功')).toBeTruthy();
  });

  it('resets a password after confirmation and shows the new one once', async () => {
    api.resetPassword.mockResolvedValue({ password: 'Xy7pQ2mN9a' });
    renderPage(<UserInfoPage />, 'userInfo', ALL);
    const row = (await screen.findByText('zhang')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '重置密码' }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.resetPassword).toHaveBeenCalledWith(7));
    expect(await screen.findByText('Xy7pQ2mN9a')).toBeTruthy();
  });

  it('disables a user through the status switch after confirmation', async () => {
    api.updateUserStatus.mockResolvedValue(users[0]);
    renderPage(<UserInfoPage />, 'userInfo', ALL);
    const row = (await screen.findByText('zhang')).closest('tr')!;
    fireEvent.click(within(row).getByRole('switch'));
    expect(await screen.findByText(/确定要停用用户“zhang”吗/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.updateUserStatus).toHaveBeenCalledWith(7, 0));
  });

  it('shows a locked user with 已锁定 and unlocks them after confirmation (edit permission only)', async () => {
    api.pageUsers.mockResolvedValue({ list: [users[0], { ...users[1], locked: true }], total: 2, pageNum: 1, pageSize: 10 } satisfies Page<User>);
    api.unlockUser.mockResolvedValue(null);
    const view = renderPage(<UserInfoPage />, 'userInfo', ['detail']);
    let row = (await screen.findByText('li')).closest('tr')!;
    expect(within(row).getByText('已锁定')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: '解锁' })).toBeNull();
    expect(within((screen.getByText('zhang')).closest('tr')!).queryByText('已锁定')).toBeNull();
    view.unmount();

    renderPage(<UserInfoPage />, 'userInfo', ALL);
    row = (await screen.findByText('li')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '解锁' }));
    expect(await screen.findByText(/确定要解锁用户“li”的登录吗/)).toBeTruthy();
    expect(api.unlockUser).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.unlockUser).toHaveBeenCalledWith(8));
  });
});
