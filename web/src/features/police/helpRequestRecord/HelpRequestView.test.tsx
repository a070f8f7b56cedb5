import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { helpRequestOf, type HelpRequest } from '../../../api/help';
import { currentHelpView, registerHelpView, type LiveMessage } from '../../../app/liveMessages';
import i18n from '../../../i18n';
import { HelpRequestView } from './HelpRequestView';

const api = vi.hoisted(() => ({ dealHelp: vi.fn() }));
vi.mock('../../../api/help', async (orig) => ({ ...(await orig<typeof import('../../../api/help')>()), ...api }));
vi.mock('./HelpMap', () => ({
  default: ({ lng, lat, label }: { lng: number; lat: number; label: string }) => <div data-testid="help-map-stub">{`${label} ${lng},${lat}`}</div>,
}));

const SLOW = { timeout: 5000 };

const message: LiveMessage = {
  key: 'help-5',
  code: 'help',
  message: '车辆 冀A·3K281 请求开锁',
  timestamp: 1772352000000,
  data: {
    id: '5', requestType: '1', requestTime: '2026-03-01 16:00:00', carNumber: '冀A·3K281', speed: '35.2',
    address: '河北省石家庄市', lng: '114.5149', lat: '38.0423', stationId: '0', groupId: '3',
  },
};

function show(request: HelpRequest) {
  const onClose = vi.fn();
  const onDealt = vi.fn();
  render(
    <ConfigProvider locale={zhCN}>
      <AntApp>
        <HelpRequestView request={request} onClose={onClose} onDealt={onDealt} />
      </AntApp>
    </ConfigProvider>,
  );
  return { onClose, onDealt };
}

const button = (name: RegExp) => screen.getByRole('button', { name });

/** The title of the confirm dialog holding el. */
const dialogTitle = (el: HTMLElement) => el.closest('.ant-modal-confirm')?.querySelector('.ant-modal-confirm-title')?.textContent;

beforeEach(() => {
  api.dealHelp.mockReset();
  document.body.innerHTML = '';
});

describe('help-request view', { timeout: 30_000 }, () => {
  it('reads the live message and shows the request with the map, unlock for type 1', async () => {
    const r = helpRequestOf(message);
    expect(r).toMatchObject({ id: 5, requestType: 1, carNumber: '冀A·3K281', lng: '114.5149', lat: '38.0423' });
    show(r);
    expect((await screen.findByTestId('help-map-stub', {}, SLOW)).textContent).toBe('冀A·3K281 114.5149,38.0423');
    expect(screen.queryByText('未定位')).toBeNull();
    for (const text of ['2026-03-01 16:00:00', '35.2 km/h', '河北省石家庄市']) expect(screen.getByText(text)).toBeTruthy();
    expect(screen.getAllByText('开锁').length).toBe(1); // the type tag; the button's text is spaced by antd
    expect(button(/^开\s*锁$/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^关\s*锁$/ })).toBeNull();
    expect(button(/^取\s*消$/)).toBeTruthy();
    expect(button(/^忽\s*略$/)).toBeTruthy();
  });

  it('shows the address in the console language when the live message carries it', async () => {
    const withTexts = { ...message, data: { ...message.data, 'address:en-US': 'Shijiazhuang, Hebei', 'address:zh-TW': '河北省石家莊市' } };
    const r = helpRequestOf(withTexts);
    expect(r.addresses).toEqual({ 'en-US': 'Shijiazhuang, Hebei', 'zh-TW': '河北省石家莊市' });
    await i18n.changeLanguage('en-US');
    try {
      show(r);
      expect(screen.getByText('Shijiazhuang, Hebei')).toBeTruthy();
      expect(screen.queryByText('河北省石家庄市')).toBeNull();
    } finally {
      await i18n.changeLanguage('zh-CN');
    }
  });

  it('says 未定位 without a map when longitude and latitude are both 0, lock for type 2', () => {
    show({ ...helpRequestOf(message), requestType: 2, lng: '0', lat: '0', address: '' });
    expect(screen.getAllByText('未定位').length).toBeGreaterThan(0);
    expect(screen.getByTestId('help-not-located')).toBeTruthy();
    expect(screen.queryByTestId('help-map-stub')).toBeNull();
    expect(button(/^关\s*锁$/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^开\s*锁$/ })).toBeNull();
  });

  it('unlock sends the request type, closes, and says 操作成功 under 提示', async () => {
    api.dealHelp.mockResolvedValue({ id: 5, status: 'done' });
    const { onClose, onDealt } = show(helpRequestOf(message));
    fireEvent.click(button(/^开\s*锁$/));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), SLOW);
    expect(api.dealHelp).toHaveBeenCalledWith(5, 1);
    expect(dialogTitle(await screen.findByText('操作成功', {}, SLOW))).toBe('提示');
    expect(onDealt).toHaveBeenCalledWith(true);
  });

  it('ignore sends 3; lock sends 2', async () => {
    api.dealHelp.mockResolvedValue({});
    show(helpRequestOf(message));
    fireEvent.click(button(/^忽\s*略$/));
    await waitFor(() => expect(api.dealHelp).toHaveBeenCalledWith(5, 3), SLOW);
    document.body.innerHTML = '';
    api.dealHelp.mockClear();
    show({ ...helpRequestOf(message), requestType: 2 });
    fireEvent.click(button(/^关\s*锁$/));
    await waitFor(() => expect(api.dealHelp).toHaveBeenCalledWith(5, 2), SLOW);
  });

  it('shows the server message when the terminal did not carry it out', async () => {
    api.dealHelp.mockRejectedValue(new Error('车辆 冀A·3K281 的终端不在线，指令未下发'));
    const { onClose, onDealt } = show(helpRequestOf(message));
    fireEvent.click(button(/^开\s*锁$/));
    expect(dialogTitle(await screen.findByText('车辆 冀A·3K281 的终端不在线，指令未下发', {}, SLOW))).toBe('提示');
    expect(screen.queryByText('操作成功')).toBeNull();
    expect(onClose).toHaveBeenCalled();
    expect(onDealt).toHaveBeenCalledWith(false);
  });

  it('registers itself as the 求助消息 dialog view', async () => {
    registerHelpView(null);
    await import('./register');
    const view = currentHelpView();
    expect(view).not.toBeNull();
    render(
      <ConfigProvider locale={zhCN}>
        <AntApp>{view!(message, () => undefined, () => undefined)}</AntApp>
      </ConfigProvider>,
    );
    expect(screen.getByTestId('help-view')).toBeTruthy();
  });
});
