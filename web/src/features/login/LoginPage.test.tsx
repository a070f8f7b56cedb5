import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const session = vi.hoisted(() => ({ signIn: vi.fn() }));
vi.mock('../../app/session', () => session);

import i18n, { applyLang } from '../../i18n';
import { useAppStore } from '../../app/store';
import LoginPage from './LoginPage';

function renderAt(entry: string) {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/home', element: <p>home page</p> },
      { path: '/access/userInfo', element: <p>users page</p> },
    ],
    { initialEntries: [entry] },
  );
  render(<RouterProvider router={router} />);
}

const account = () => screen.getByLabelText('账号') as HTMLInputElement;
const password = () => screen.getByLabelText('密码') as HTMLInputElement;
const submit = () => fireEvent.click(screen.getByRole('button', { name: '登录' }));
const fill = (a: string, p: string) => {
  fireEvent.change(account(), { target: { value: a } });
  fireEvent.change(password(), { target: { value: p } });
};

describe('LoginPage (no antd: D83)', () => {
  beforeEach(() => {
    useAppStore.setState({ loggedIn: false, platform: null });
    session.signIn.mockReset();
  });
  afterEach(async () => {
    await act(() => applyLang('zh-CN'));
    useAppStore.getState().setLang('zh-CN');
  });

  it('an empty form says what is missing under each field, focuses the account and does not sign in', async () => {
    renderAt('/login');
    submit();
    expect(screen.getByText('账号不能为空')).toBeTruthy();
    expect(screen.getByText('密码不能为空')).toBeTruthy();
    expect(account().getAttribute('aria-invalid')).toBe('true');
    expect(account().getAttribute('aria-describedby')).toBe('account-error');
    expect(document.activeElement).toBe(account());
    // blanks are no account; fixing a field clears its message at once
    fireEvent.change(account(), { target: { value: '   ' } });
    expect(screen.getByText('账号不能为空')).toBeTruthy();
    fireEvent.change(account(), { target: { value: 'admin' } });
    expect(screen.queryByText('账号不能为空')).toBeNull();
    submit();
    expect(document.activeElement).toBe(password());
    expect(session.signIn).not.toHaveBeenCalled();
  });

  it('a refused sign-in shows the server message in the error line and stays; typing clears it', async () => {
    session.signIn.mockResolvedValue({ ok: false, message: '用户名或密码错误' });
    renderAt('/login');
    fill('admin', 'wrong');
    submit();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('用户名或密码错误'));
    expect(session.signIn).toHaveBeenCalledWith('admin', 'wrong');
    expect(screen.queryByText('home page')).toBeNull();
    fireEvent.change(password(), { target: { value: 'again' } });
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it('no answer from the server says the request failed', async () => {
    session.signIn.mockRejectedValue(new Error('Network Error'));
    renderAt('/login');
    fill('admin', 'admin123');
    fireEvent.submit(password().form!); // Enter in a field submits the form
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('请求失败'));
  });

  it('a sign-in goes to the page asked for, never outside the console', async () => {
    session.signIn.mockResolvedValue({ ok: true });
    renderAt('/login?redirect=%2Faccess%2FuserInfo');
    fill('  admin', 'admin123');
    expect(account().value).toBe('admin'); // leading blanks are dropped as typed
    submit();
    await screen.findByText('users page');
    renderAt('/login?redirect=%2F%2Fevil.example');
    fill('admin', 'admin123');
    submit();
    await screen.findByText('home page');
  });

  it('the password can be shown and hidden', () => {
    renderAt('/login');
    expect(password().type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: '显示密码' }));
    expect(password().type).toBe('text');
    expect(screen.getByRole('button', { name: '隐藏密码' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('the language select switches every text of the page and is remembered', async () => {
    renderAt('/login');
    const select = screen.getByRole('combobox', { name: '切换语言' }) as HTMLSelectElement;
    expect(select.value).toBe('zh-CN');
    expect([...select.options].map((o) => o.text)).toEqual(['简体中文', '繁體中文', 'English']);
    fireEvent.change(select, { target: { value: 'en-US' } });
    await screen.findByRole('button', { name: 'Sign in' });
    expect(i18n.language).toBe('en-US');
    expect(localStorage.getItem('lang')).toBe('en-US');
    expect(screen.getByLabelText('Account')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('account cannot be empty')).toBeTruthy();
  });
});
