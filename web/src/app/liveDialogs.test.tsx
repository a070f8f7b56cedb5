import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { create, toBinary } from '@bufbuild/protobuf';
import { feedback } from '../api/feedback';
import { ChatMessageSchema } from '../proto/chat_pb';
import { decodePayload, pump, reopen, resetLiveDialogs, showLiveMessage, showLiveMessagesElsewhere } from './liveDialogs';
import { INBOX_KEY, pendingCount, useLiveInbox } from './liveInbox';
import { registerHelpView } from './liveMessages';
import i18n from '../i18n';

const warning = vi.fn();
const destroy = vi.fn();
const confirm = vi.fn(() => ({ destroy }));

const chat = toBinary(
  ChatMessageSchema,
  create(ChatMessageSchema, { id: 1n, action: 'system', title: '系统维护通知', content: '今晚升级', sender: '管理员', receiver: '7', timestamp: 1763800000000n }),
);
const json = new TextEncoder().encode(JSON.stringify({ key: 'k1', code: 'help', message: '沪A12345 请求开锁', timestamp: 1763800000000, data: { carId: '3' } }));

describe('live message dialogs', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('zh-CN');
    feedback.modal = { warning, confirm } as unknown as typeof feedback.modal;
  });
  afterEach(() => {
    feedback.modal = null;
    registerHelpView(null);
    resetLiveDialogs();
    useLiveInbox.getState().clear();
    vi.clearAllMocks();
    warning.mockReset();
    confirm.mockReset().mockImplementation(() => ({ destroy }));
  });

  const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  const alarm = (n: number) => enc({ key: 'alarm', code: 'a', message: `报警 ${n}`, timestamp: 1763800000000 + n, data: {} });
  const help = (n: number) => enc({ key: `h${n}`, code: 'help', message: `求助 ${n}`, timestamp: 1763800000000 + n, data: {} });
  const contentOf = (call: unknown[]) => (call[0] as { content: ReactElement }).content;
  const closeDialog = (fn: typeof warning | typeof confirm, n: number) => ((fn.mock.calls[n] as unknown[])[0] as { afterClose: () => void }).afterClose();

  it('one dialog at a time: later messages wait, the open one says how many, and open one after another', () => {
    const update = vi.fn();
    warning.mockReturnValue({ update, destroy });
    showLiveMessage('msg/user/7', chat);
    showLiveMessage('msg/user/7', alarm(1));
    showLiveMessage('msg/user/7', alarm(2));
    expect(warning).toHaveBeenCalledTimes(1);
    render(update.mock.calls.at(-1)![0].content as ReactElement);
    expect(screen.getByText('还有 2 条消息等待查看')).toBeTruthy();
    closeDialog(warning, 0);
    expect(warning).toHaveBeenCalledTimes(2);
    closeDialog(warning, 1);
    closeDialog(warning, 2);
    expect(warning).toHaveBeenCalledTimes(3);
    expect(useLiveInbox.getState().items.every((i) => i.read)).toBe(true);
  });

  it('a help request goes before waiting system messages, and never two dialogs at once', () => {
    warning.mockReturnValue({ update: vi.fn(), destroy });
    confirm.mockReturnValue({ update: vi.fn(), destroy } as never);
    showLiveMessage('msg/user/7', alarm(1));
    showLiveMessage('msg/user/7', alarm(2));
    showLiveMessage('requestHelp/user/7', help(1));
    expect(warning).toHaveBeenCalledTimes(1);
    expect(confirm).not.toHaveBeenCalled();
    closeDialog(warning, 0);
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(warning).toHaveBeenCalledTimes(1);
  });

  it('a page that shows alarms itself keeps them out of the dialogs while it is open; other messages still pop up', () => {
    warning.mockReturnValue({ update: vi.fn(), destroy });
    confirm.mockReturnValue({ update: vi.fn(), destroy } as never);
    const remove = showLiveMessagesElsewhere((d) => d.kind === 'json' && d.message.key === 'alarm');
    showLiveMessage('msg/user/7', alarm(1));
    expect(warning).not.toHaveBeenCalled();
    expect(useLiveInbox.getState().items).toMatchObject([{ read: true }]);
    showLiveMessage('requestHelp/user/7', help(1));
    expect(confirm).toHaveBeenCalledTimes(1);
    closeDialog(confirm, 0);
    remove();
    showLiveMessage('msg/user/7', alarm(2));
    expect(warning).toHaveBeenCalledTimes(1);
  });

  it('a message once read does not pop up again (another page, a reload, another tab delivering it too)', () => {
    warning.mockReturnValue({ update: vi.fn(), destroy });
    showLiveMessage('msg/user/7', alarm(1));
    closeDialog(warning, 0);
    showLiveMessage('msg/user/7', alarm(1));
    expect(warning).toHaveBeenCalledTimes(1);
    // a fresh page (module state gone) reads the same record from localStorage
    resetLiveDialogs();
    useLiveInbox.getState().reload();
    pump();
    expect(warning).toHaveBeenCalledTimes(1);
    expect(JSON.parse(localStorage.getItem(INBOX_KEY)!)[0]).toMatchObject({ kind: 'system', read: true });
  });

  it('read in another tab: the dialog here closes quietly and the next one opens', () => {
    warning.mockReturnValue({ update: vi.fn(), destroy });
    showLiveMessage('msg/user/7', alarm(1));
    showLiveMessage('msg/user/7', alarm(2));
    const first = useLiveInbox.getState().items.at(-1)!;
    // the other tab marks it read in the shared record
    localStorage.setItem(INBOX_KEY, JSON.stringify(useLiveInbox.getState().items.map((i) => (i.id === first.id ? { ...i, read: true } : i))));
    window.dispatchEvent(new StorageEvent('storage', { key: INBOX_KEY }));
    expect(destroy).toHaveBeenCalledTimes(1);
    expect(warning).toHaveBeenCalledTimes(2);
    render(contentOf(warning.mock.calls[1]));
    expect(screen.getByText('报警 2')).toBeTruthy();
  });

  it('a help request closed without an answer stays waiting in the header list; answering it clears that', () => {
    let answer: () => void = () => {};
    registerHelpView((m, _close, answered) => {
      answer = answered;
      return <span>view:{m.key}</span>;
    });
    confirm.mockReturnValue({ update: vi.fn(), destroy } as never);
    showLiveMessage('requestHelp/user/7', help(1));
    closeDialog(confirm, 0);
    const [item] = useLiveInbox.getState().items;
    expect(item).toMatchObject({ kind: 'help', read: true });
    expect(item.answered).toBeFalsy();
    expect(pendingCount(useLiveInbox.getState().items)).toBe(1);
    // reopened from the header list, answered there
    reopen(item.id);
    expect(confirm).toHaveBeenCalledTimes(2);
    render(contentOf(confirm.mock.calls[1] as unknown[]));
    expect(screen.getByText('view:h1')).toBeTruthy();
    answer();
    expect(pendingCount(useLiveInbox.getState().items)).toBe(0);
  });

  it('tells the JSON live message from the binary chat message', () => {
    expect(decodePayload(json)).toMatchObject({ kind: 'json', message: { key: 'k1', data: { carId: '3' } } });
    expect(decodePayload(chat)).toMatchObject({ kind: 'chat', message: { title: '系统维护通知', sender: '管理员' } });
  });

  it('a msg topic opens 系统信息 (warning) with the system message', () => {
    showLiveMessage('msg/user/7', chat);
    expect(warning).toHaveBeenCalledTimes(1);
    const arg = warning.mock.calls[0][0] as { title: string; content: ReactElement };
    expect(arg.title).toBe('系统信息');
    render(arg.content);
    expect(screen.getByText('系统维护通知')).toBeTruthy();
    expect(screen.getByText('今晚升级')).toBeTruthy();
    expect(screen.getByText(/管理员/)).toBeTruthy();
    expect(confirm).not.toHaveBeenCalled();
  });

  it('an alarm (JSON) on msg also opens 系统信息', () => {
    showLiveMessage('msg/user/7', json);
    const arg = warning.mock.calls[0][0] as { title: string; content: ReactElement };
    render(arg.content);
    expect(screen.getByText('沪A12345 请求开锁')).toBeTruthy();
  });

  it('an alarm is shown in the console language when the server sent its texts', async () => {
    await i18n.changeLanguage('en-US');
    const texts = { 'zh-CN': '沪A12345 发生 I 级报警：施封破坏', 'zh-TW': '沪A12345 發生 I 級報警：施封破壞', 'en-US': '沪A12345: level I alarm, seal broken' };
    showLiveMessage('msg/user/7', new TextEncoder().encode(JSON.stringify({ key: 'alarm', code: 'sealBroken', message: texts['zh-CN'], texts, timestamp: 1763800000000, data: {} })));
    render((warning.mock.calls[0][0] as { content: ReactElement }).content);
    expect(screen.getByText('沪A12345: level I alarm, seal broken')).toBeTruthy();
    expect(screen.queryByText(texts['zh-CN'])).toBeNull();
  });

  it('another topic opens 求助消息 (confirm, 700 wide, closable) with the text when no view is registered', () => {
    showLiveMessage('requestHelp/user/7', json);
    expect(warning).not.toHaveBeenCalled();
    const arg = (confirm.mock.calls[0] as unknown[])[0] as Record<string, unknown>;
    expect(arg).toMatchObject({ title: '求助消息', width: 700, closable: true });
    expect('footer' in arg).toBe(false);
    render(arg.content as ReactElement);
    expect(screen.getByText('沪A12345 请求开锁')).toBeTruthy();
  });

  it('a registered help view replaces the content and the footer; close destroys the dialog', () => {
    let closeIt: () => void = () => {};
    registerHelpView((m, close) => {
      closeIt = close;
      return <span>view:{m.key}</span>;
    });
    showLiveMessage('requestHelp/user/7', json);
    const arg = (confirm.mock.calls[0] as unknown[])[0] as Record<string, unknown>;
    expect(arg.footer).toBeNull();
    render(arg.content as ReactElement);
    expect(screen.getByText('view:k1')).toBeTruthy();
    closeIt();
    expect(destroy).toHaveBeenCalled();
  });
});

describe('live message times', () => {
  it('are shown on the platform clock (Asia/Shanghai)', async () => {
    await i18n.changeLanguage('zh-CN');
    feedback.modal = { warning, confirm } as unknown as typeof feedback.modal;
    showLiveMessage('msg/user/7', chat);
    render((warning.mock.calls[0][0] as { content: ReactElement }).content);
    expect(screen.getByText(/2025-11-22 16:26:40/)).toBeTruthy();
    feedback.modal = null;
    resetLiveDialogs();
    useLiveInbox.getState().clear();
    vi.clearAllMocks();
  });
});
