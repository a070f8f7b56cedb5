import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Role, User } from '../../../api/types';
import { renderPage } from '../testing';
import { UserForm } from './UserForm';

const api = vi.hoisted(() => ({ insertUser: vi.fn(), updateUser: vi.fn() }));
vi.mock('../../../api/user', async (orig) => ({ ...(await orig<typeof import('../../../api/user')>()), ...api }));
vi.mock('../../../api/role', () => ({ listRoles: vi.fn(async (): Promise<Role[]> => []) }));
vi.mock('../../../api/group', () => ({ groupTrees: vi.fn(async () => []) }));

const legacy: User = { id: 9, name: '老账号', nickName: '老张', phone: '', email: '', platform: false, groupId: 1, groupName: '总部', roleIds: [], roleNames: [], status: 1, expireAt: null, lastLoginAt: null, createdAt: '' };

beforeEach(() => {
  api.insertUser.mockReset().mockResolvedValue(legacy);
  api.updateUser.mockReset().mockResolvedValue(legacy);
});

async function open(user: User | null) {
  renderPage(<UserForm open user={user} onClose={() => {}} onSaved={() => {}} />, 'userInfo', ['add', 'edit']);
  return await screen.findByRole('dialog');
}

// The form's limits are the server's (internal/org/names.go): what the form lets through the server
// accepts, and what the server refuses the form already refuses.
describe('user form limits agree with the server', { timeout: 60_000 }, () => {
  it('nickname: at most 32 characters, no line breaks or direction controls', async () => {
    const dialog = await open(null);
    const nick = within(dialog).getByLabelText('昵称') as HTMLInputElement;
    expect(nick.maxLength).toBe(32);
    fireEvent.change(nick, { target: { value: '李'.repeat(33) } });
    expect(await within(dialog).findByText('昵称最多32个字符')).toBeTruthy();
    fireEvent.change(nick, { target: { value: '小李\u202e员理管' } });
    expect(await within(dialog).findByText('昵称不能包含控制字符、换行或文字方向控制符')).toBeTruthy();
    fireEvent.change(nick, { target: { value: '李'.repeat(32) } });
    // antd keeps a leaving message in the DOM while it fades: wait for both to be gone
    await waitFor(() => {
      expect(within(dialog).queryByText('昵称最多32个字符')).toBeNull();
      expect(within(dialog).queryByText('昵称不能包含控制字符、换行或文字方向控制符')).toBeNull();
    });
  });

  it.each(['li', 'li si', '李四账号', 'a'.repeat(33)])('refuses the account %j', async (name) => {
    const dialog = await open(null);
    fireEvent.change(within(dialog).getByLabelText('账号'), { target: { value: name } });
    expect(await within(dialog).findByText('账号只能包含字母、数字和 _ . - @，长度为3到32个字符')).toBeTruthy();
  });

  it('an account named before the rule is edited without renaming it', async () => {
    const dialog = await open(legacy);
    fireEvent.change(within(dialog).getByLabelText('昵称'), { target: { value: '老张头' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.updateUser).toHaveBeenCalledTimes(1));
    expect(api.updateUser.mock.calls[0][0]).toMatchObject({ id: 9, name: '老账号', nickName: '老张头' });
    fireEvent.change(within(dialog).getByLabelText('账号'), { target: { value: '新账号' } });
    expect(await within(dialog).findByText('账号只能包含字母、数字和 _ . - @，长度为3到32个字符')).toBeTruthy();
  });

  it('inserts a valid account', async () => {
    const dialog = await open(null);
    fireEvent.change(within(dialog).getByLabelText('账号'), { target: { value: 'ops@example.com' } });
    fireEvent.change(within(dialog).getByLabelText('密码'), { target: { value: 'abc123' } });
    fireEvent.change(within(dialog).getByLabelText('确认密码'), { target: { value: 'abc123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.insertUser).toHaveBeenCalledTimes(1));
    expect(api.insertUser.mock.calls[0][0]).toMatchObject({ name: 'ops@example.com' });
  });
});
