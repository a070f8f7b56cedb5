import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CarDetails, DeviceKind } from '../../../api/monitor';

const api = vi.hoisted(() => ({ carDetails: vi.fn(), getAddress: vi.fn(), alarmsByCar: vi.fn() }));
vi.mock('../../../api/monitor', () => ({ carDetails: api.carDetails }));
vi.mock('../../../api/geocode', () => ({ getAddress: api.getAddress }));
vi.mock('../../../api/equipment', () => ({ carFunctions: () => Promise.reject(new Error('no server')) }));
vi.mock('../../../api/alarm', async (orig) => ({ ...(await orig<typeof import('../../../api/alarm')>()), alarmsByCar: api.alarmsByCar }));

import { CarDetailPanel } from './CarDetailPanel';

const dev = (kind: DeviceKind, kindText: string, o: Partial<{ installed: boolean; open: boolean; locked: boolean; fault: boolean }> = {}) => ({
  kind,
  kindText,
  installed: true,
  open: false,
  locked: true,
  fault: false,
  ...o,
});

const sample: CarDetails = {
  carId: 5,
  plate: '沪A·6N337',
  groupId: 3,
  groupName: '华东分公司',
  driverName: '王师傅',
  driverPhone: '13800000005',
  terminalPhone: '013800000005',
  code: 4,
  online: true,
  moving: true,
  abnormal: true,
  lng: 121.473701,
  lat: 31.230416,
  speed: 65.5,
  direction: 90,
  time: '2026-03-01 15:59:59',
  received: '2026-03-01 16:00:01',
  alarm: 1,
  status: 3,
  load: 'full',
  lockState: '',
  seal: 2,
  codeText: '在途',
  loadText: '满载',
  sealText: '铅封破坏',
  acc: true,
  positioned: true,
  mileage: 12345.6,
  compartments: 2,
  smallManholeCoverNumber: 2,
  manholeCoverNumber: 2,
  oilDischargeValveNumber: 2,
  bottomValveNumber: 1,
  speedLimit: 80,
  tankTime: '2026-03-01 15:59:50',
  compartmentStates: [
    {
      houseNumber: 1,
      devices: [
        dev('smallManholeCover', '小人孔盖'),
        dev('manholeCover', '人孔盖', { open: true, locked: false }),
        dev('oilDischargeValve', '卸油阀', { fault: true }),
        dev('bottomValve', '底阀'),
      ],
    },
    {
      houseNumber: 2,
      devices: [dev('smallManholeCover', '小人孔盖'), dev('manholeCover', '人孔盖'), dev('oilDischargeValve', '卸油阀'), dev('bottomValve', '底阀', { installed: false })],
    },
  ],
  levelTime: '2026-03-01 15:59:40',
  levels: [
    { compartment: 1, levelMm: 1520, volumeL: 9800, temperature: 18.5 },
    { compartment: 2, levelMm: 1490, volumeL: 9600, temperature: 18.2 },
  ],
  alarms: [{ bit: 0, name: '紧急报警' }],
  abnormalReasons: ['终端报警', '铅封破坏'],
};

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <CarDetailPanel carId={5} follow={false} onFollow={() => {}} onLocate={() => {}} onClose={() => {}} />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.clearAllMocks());
beforeEach(() => api.alarmsByCar.mockResolvedValue([]));

describe('CarDetailPanel', () => {
  it('lists the car\'s recent alarm records', async () => {
    api.carDetails.mockResolvedValue(sample);
    api.getAddress.mockResolvedValue('');
    api.alarmsByCar.mockResolvedValue([
      { id: 3, carId: 5, carNumber: '沪A·6N337', groupId: 3, type: 'abnormalUnload', typeName: '异常卸油', level: 1, startTime: '2026-03-01 10:00:00', endTime: null,
        lng: 121.47, lat: 31.23, speed: 0, detail: '打开的仓：2', state: 0, handlerName: '', handledTime: null, remark: '' },
    ]);
    renderPanel();
    const list = await screen.findByTestId('detail-recent-alarms');
    expect(list.textContent).toContain('异常卸油');
    expect(list.textContent).toContain('I级');
    expect(list.textContent).toContain('打开的仓：2');
    expect(api.alarmsByCar).toHaveBeenCalledWith(5, 5);
  }, 20_000);

  it('shows plate, driver, speed, bearing text, address, seal, alarms, compartments and levels', async () => {
    api.carDetails.mockResolvedValue(sample);
    api.alarmsByCar.mockResolvedValue([]);
    api.getAddress.mockResolvedValue('上海市黄浦区附近');
    renderPanel();
    expect(await screen.findByText('沪A·6N337')).toBeTruthy();
    expect(screen.getByTestId('detail-driver').textContent).toBe('王师傅 · 13800000005');
    expect(screen.getByTestId('detail-speed').textContent).toBe('65.5 km/h');
    expect(screen.getByTestId('detail-bearing').textContent).toContain('东');
    await waitFor(() => expect(screen.getByTestId('detail-address').textContent).toContain('上海市黄浦区附近'));
    expect(api.getAddress).toHaveBeenCalledWith(121.473701, 31.230416);
    expect(screen.getByTestId('detail-seal').textContent).toBe('铅封破坏');
    const alarms = screen.getByTestId('detail-alarms');
    expect(alarms.textContent).toContain('紧急报警');
    expect(alarms.textContent).toContain('终端报警');

    const table = screen.getByTestId('detail-compartments');
    const head = table.querySelector('thead')!.textContent;
    for (const h of ['小人孔盖', '人孔盖', '卸油阀', '底阀']) expect(head).toContain(h);
    const rows = table.querySelectorAll('tbody tr.ant-table-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('开'); // manhole cover open
    expect(rows[0].textContent).toContain('故障'); // discharge valve fault
    expect(rows[1].textContent).toContain('未安装'); // bottom valve of compartment 2
    expect(rows[0].querySelectorAll('[aria-label="已上锁"]')).toHaveLength(3);
    expect(rows[0].querySelectorAll('[aria-label="未上锁"]')).toHaveLength(1);

    const levels = screen.getByTestId('detail-levels');
    expect(levels.textContent).toContain('1520');
    expect(levels.textContent).toContain('9800');
    expect(levels.textContent).toContain('18.5');
    expect(await screen.findByText('暂无报警记录')).toBeTruthy();
  }, 20_000); // two antd tables in jsdom: slow on a busy machine

  it('shows 未定位 and does not look up an address for a car without a fix', async () => {
    api.carDetails.mockResolvedValue({
      ...sample,
      lng: '',
      lat: '',
      speed: 0,
      direction: 0,
      abnormal: false,
      alarms: [],
      abnormalReasons: [],
      compartmentStates: [],
      levels: [],
      sealText: '',
      time: null,
      received: null,
    });
    renderPanel();
    expect(await screen.findByText('未定位')).toBeTruthy();
    expect(screen.getByTestId('detail-time').textContent).toBe('从未上报');
    expect(screen.getByTestId('detail-speed').textContent).toBe('—');
    expect(screen.getByTestId('detail-bearing').textContent).toBe('—');
    expect(screen.getByText('暂无罐体数据')).toBeTruthy();
    expect(screen.getByText('暂无液位数据')).toBeTruthy();
    expect(screen.queryByTestId('detail-alarms')).toBeNull();
    expect(api.getAddress).not.toHaveBeenCalled();
    expect(screen.getByTestId('detail-locate').hasAttribute('disabled')).toBe(true);
  });

  it('says so when the details cannot be loaded', async () => {
    api.carDetails.mockRejectedValue(new Error('记录不存在'));
    renderPanel();
    expect(await screen.findByText('车辆详情加载失败')).toBeTruthy();
    expect(screen.getByText('记录不存在')).toBeTruthy();
  });
});
