import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { useLiveInbox, type InboxItem } from '../liveInbox';
import { LiveInbox } from './LiveInbox';

const reopen = vi.hoisted(() => vi.fn());
vi.mock('../liveDialogs', () => ({ reopen }));

const item = (id: string, kind: 'system' | 'help', read: boolean, text: string, answered?: boolean): InboxItem => ({
  id, kind, read, answered, received: 1763800000000, body: { kind: 'json', message: { key: '', code: '', message: text, timestamp: 0, data: {} } },
});

describe('header list of live messages', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('zh-CN');
    useLiveInbox.getState().clear();
  });
  afterEach(() => useLiveInbox.getState().clear());

  it('counts unread messages and unanswered help requests, lists them all and reopens one on click', async () => {
    useLiveInbox.getState().add(item('s1', 'system', true, '报警 已读'));
    useLiveInbox.getState().add(item('s2', 'system', false, '报警 未读'));
    useLiveInbox.getState().add(item('h1', 'help', true, '求助 待答复'));
    useLiveInbox.getState().add(item('h2', 'help', true, '求助 已答复', true));
    render(<LiveInbox />);
    const button = screen.getByRole('button', { name: '实时消息' });
    expect(within(button).getByText('2')).toBeTruthy();
    fireEvent.click(button);
    const list = await screen.findByTestId('live-inbox');
    for (const [text, state] of [['报警 已读', '已读'], ['报警 未读', '未读'], ['求助 待答复', '待答复'], ['求助 已答复', '已答复']]) {
      const row = within(list).getByText(text).closest('.ant-list-item') as HTMLElement;
      expect(within(row).getByText(state)).toBeTruthy();
    }
    fireEvent.click(within(list).getByText('求助 待答复'));
    await waitFor(() => expect(reopen).toHaveBeenCalledWith('h1'));
  });
});
