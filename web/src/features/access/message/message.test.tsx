import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SentMessage } from '../../../api/message';
import { renderPage } from '../testing';
import MessagePage, { toSentFilters } from '.';

const sent: SentMessage[] = [
  { id: 1, title: '系统维护通知', content: '今晚升级', senderName: '管理员', targets: { users: ['调度员'], groups: ['华东分公司'] }, recipients: 3, read: 1, createdAt: '2026-03-18 15:30:00' },
];
const api = vi.hoisted(() => ({ pageMessages: vi.fn(), sendMessage: vi.fn(), messageUsers: vi.fn(), receivedMessages: vi.fn(), markRead: vi.fn(), groupTrees: vi.fn() }));
vi.mock('../../../api/message', () => api);
vi.mock('../../../api/group', () => ({ groupTrees: api.groupTrees }));

beforeEach(() => {
  api.pageMessages.mockReset().mockResolvedValue({ list: sent, total: 1, pageNum: 1, pageSize: 10 });
  api.sendMessage.mockReset().mockResolvedValue({ id: 2, recipients: 1, online: 1 });
  api.messageUsers.mockReset().mockResolvedValue([{ id: 5, name: 'dispatcher', nickName: '调度员', groupName: '中油运输集团', online: true }]);
  api.receivedMessages.mockReset().mockResolvedValue({ list: [{ id: 9, title: '收到的', content: 'x', senderName: '管理员', createdAt: '2026-03-18 15:30:00', readAt: null }], total: 1, pageNum: 1, pageSize: 10 });
  api.markRead.mockReset().mockResolvedValue({ read: 1 });
  api.groupTrees.mockReset().mockResolvedValue([{ id: 1, parentId: null, name: '中油运输集团', children: [] }]);
});

describe('message page', { timeout: 60_000 }, () => {
  it('toSentFilters splits the time range', () => {
    expect(toSentFilters({ title: 'a', time: { preset: 'today', start: '2026-03-18 00:00:00', end: '2026-03-18 23:59:59' } })).toEqual({
      title: 'a', startTime: '2026-03-18 00:00:00', endTime: '2026-03-18 23:59:59',
    });
  });

  it('lists sent messages with their targets and read counts', async () => {
    renderPage(<MessagePage />, 'message', []);
    expect(await screen.findByText('系统维护通知')).toBeTruthy();
    expect(screen.getByText('华东分公司（组织）、调度员')).toBeTruthy();
    expect(screen.getByText('1 / 3')).toBeTruthy();
  });

  it('send asks for recipients, then sends title, content and the chosen users', async () => {
    renderPage(<MessagePage />, 'message', []);
    await screen.findByText('系统维护通知');
    fireEvent.click(screen.getByRole('button', { name: '发送消息' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('标题'), { target: { value: ' 通知 ' } });
    fireEvent.change(within(dialog).getByLabelText('内容'), { target: { value: '内容一' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /发\s*送/ }));
    expect((await within(dialog).findAllByText('请选择接收用户或接收组织')).length).toBeGreaterThan(0);
    expect(api.sendMessage).not.toHaveBeenCalled();

    await waitFor(() => expect(api.messageUsers).toHaveBeenCalled());
    fireEvent.mouseDown(within(dialog).getByLabelText('接收用户'));
    fireEvent.click(await screen.findByText('调度员 (dispatcher) 中油运输集团'));
    fireEvent.click(within(dialog).getByRole('button', { name: /发\s*送/ }));
    await waitFor(() => expect(api.sendMessage).toHaveBeenCalledWith({ title: '通知', content: '内容一', userIds: [5], groupIds: [] }));
    await waitFor(() => expect(api.pageMessages).toHaveBeenCalledTimes(2));
  });

  it('the received tab marks a message read', async () => {
    renderPage(<MessagePage />, 'message', []);
    fireEvent.click(await screen.findByRole('tab', { name: '我收到的' }));
    fireEvent.click(await screen.findByRole('button', { name: '标为已读' }));
    await waitFor(() => expect(api.markRead).toHaveBeenCalledWith([9]));
  });
});

describe('message page export', { timeout: 60_000 }, () => {
  it('offers export of the sent list without a button permission', async () => {
    renderPage(<MessagePage />, 'message', []);
    await screen.findByText('系统维护通知');
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();
  });
});
