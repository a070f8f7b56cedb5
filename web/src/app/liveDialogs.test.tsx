import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { create, toBinary } from '@bufbuild/protobuf';
import { feedback } from '../api/feedback';
import { ChatMessageSchema } from '../proto/chat_pb';
import { decodePayload, resetLiveDialogs, showLiveMessage } from './liveDialogs';
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
    vi.clearAllMocks();
  });

  it('system messages arriving while 系统信息 is open join it instead of stacking dialogs', () => {
    const update = vi.fn();
    warning.mockReturnValueOnce({ update, destroy });
    showLiveMessage('msg/user/7', chat);
    showLiveMessage('msg/user/7', json);
    expect(warning).toHaveBeenCalledTimes(1);
    expect(update).toHaveBeenCalledTimes(1);
    render((update.mock.calls[0][0] as { content: ReactElement }).content);
    expect(screen.getByText('共 2 条新消息')).toBeTruthy();
    expect(screen.getByText('沪A12345 请求开锁')).toBeTruthy();
    expect(screen.getByText('今晚升级')).toBeTruthy();
    // once closed, the next message opens a new dialog
    (warning.mock.calls[0][0] as { afterClose: () => void }).afterClose();
    showLiveMessage('msg/user/7', json);
    expect(warning).toHaveBeenCalledTimes(2);
  });

  it('help requests arriving while 求助消息 is open wait and open one after another', () => {
    showLiveMessage('requestHelp/user/7', json);
    showLiveMessage('requestHelp/user/7', json);
    expect(confirm).toHaveBeenCalledTimes(1);
    ((confirm.mock.calls[0] as unknown[])[0] as { afterClose: () => void }).afterClose();
    expect(confirm).toHaveBeenCalledTimes(2);
    ((confirm.mock.calls[1] as unknown[])[0] as { afterClose: () => void }).afterClose();
    expect(confirm).toHaveBeenCalledTimes(2);
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
    vi.clearAllMocks();
  });
});
