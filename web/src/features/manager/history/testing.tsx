import { expect } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CarOption } from '../../../api/history';
import type { Page } from '../../../api/types';

/** Shared by the history pages' tests: the vehicle search's answer, choosing a vehicle, searching. */

export const SLOW = { timeout: 5000 };

export const cars: CarOption[] = [
  { carId: 5, plate: '沪A·6N337', groupName: '华东分公司', terminalPhone: '013852600104' },
  { carId: 6, plate: '沪B·12345', groupName: '上海车队', terminalPhone: '013852600105' },
];

export const carPage: Page<CarOption> = { list: cars, total: 2, pageNum: 1, pageSize: 20 };

export function page<T>(list: T[], total = list.length): Page<T> {
  return { list, total, pageNum: 1, pageSize: 10 };
}

export function filterForm(): HTMLElement {
  return document.querySelector<HTMLElement>('form.tw-filter-form')!;
}

/** Opens the vehicle picker and chooses the car with `plate`. */
export async function pickVehicle(plate: string) {
  const picker = filterForm().querySelector<HTMLElement>('[data-testid="vehicle-picker"] .ant-select-selector, .ant-select[data-testid="vehicle-picker"] .ant-select-selector')!;
  fireEvent.mouseDown(picker);
  fireEvent.click(await screen.findByTitle(new RegExp(`^${plate}`), {}, SLOW));
}

/** Clicks 查询 in the filter bar. */
export function search() {
  fireEvent.click(within(filterForm()).getByRole('button', { name: /查\s*询/ }));
}

/** Waits until `fn` was called with an object containing `part`. */
export async function calledWith(fn: { mock: { calls: unknown[][] } }, part: Record<string, unknown>) {
  await waitFor(() => expect(fn.mock.calls.some((c) => matches(c[0], part))).toBe(true), SLOW);
}

function matches(arg: unknown, part: Record<string, unknown>): boolean {
  if (!arg || typeof arg !== 'object') return false;
  return Object.entries(part).every(([k, v]) => JSON.stringify((arg as Record<string, unknown>)[k]) === JSON.stringify(v));
}
