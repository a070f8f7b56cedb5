import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GroupCarNode } from '../../../api/group';
import i18n from '../../../i18n';
import { shownCarIds, useMonitorStore } from './store';
import { VehicleTreePanel } from './VehicleTreePanel';

const car = (id: number, plate: string, groupId: number): GroupCarNode => ({ id, name: plate, type: 'car', plate, groupId, children: null });
const group = (id: number, name: string, children: GroupCarNode[]): GroupCarNode => ({ id, name, type: 'group', children });
const src = [group(1, '华东能源', [group(3, '华东分公司', [car(21, '沪A·6N337', 3), car(22, '沪B·12345', 3), car(23, '冀A·10001', 3)])])];

const s = () => useMonitorStore.getState();

describe('tree search narrows the map too', { timeout: 60_000 }, () => {
  beforeEach(async () => {
    await i18n.changeLanguage('zh-CN');
    s().reset();
  });
  afterEach(cleanup);

  it('the checked cars on the map are those the searched tree still shows; clearing the search shows them all again', async () => {
    act(() => s().setCheckedCars([21, 22, 23]));
    render(<VehicleTreePanel source={src} loading={false} error={false} onRetry={() => undefined} onPick={() => undefined} />);
    expect(s().searchedCarIds).toBeNull();
    expect(shownCarIds(s().checkedCarIds, s().searchedCarIds)).toEqual([21, 22, 23]);
    fireEvent.change(screen.getByTestId('vehicle-search').querySelector('input') ?? screen.getByTestId('vehicle-search'), { target: { value: '沪' } });
    await waitFor(() => expect(shownCarIds(s().checkedCarIds, s().searchedCarIds)).toEqual([21, 22]));
    // the search does not uncheck anything: the checks stay for when it is cleared
    expect([...s().checkedCarIds]).toEqual([21, 22, 23]);
    fireEvent.change(screen.getByTestId('vehicle-search').querySelector('input') ?? screen.getByTestId('vehicle-search'), { target: { value: '' } });
    await waitFor(() => expect(s().searchedCarIds).toBeNull());
  });

  it('a group the user closed stays closed when the same groups come again (a live refresh)', async () => {
    const props = { loading: false, error: false, onRetry: () => undefined, onPick: () => undefined };
    const { rerender } = render(<VehicleTreePanel source={src} {...props} />);
    await screen.findByText('沪A·6N337');
    const row = screen.getByText('华东分公司').closest('.ant-tree-treenode');
    const switcher = row?.querySelector('.ant-tree-switcher');
    expect(switcher).toBeTruthy();
    fireEvent.click(switcher as Element);
    await waitFor(() => expect(screen.queryByText('沪A·6N337')).toBeNull());
    rerender(<VehicleTreePanel source={structuredClone(src)} {...props} />);
    await act(async () => undefined);
    expect(screen.queryByText('沪A·6N337')).toBeNull();
    // a search still opens every group it shows
    fireEvent.change(screen.getByTestId('vehicle-search').querySelector('input') ?? screen.getByTestId('vehicle-search'), { target: { value: '沪' } });
    await screen.findByText('沪A·6N337');
  });
});
