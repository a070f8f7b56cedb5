import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Employee } from '../../../api/staff';
import { bitsOf, moveStep, rolesOf, validIDCard } from '../../../api/staff';
import type { Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import EmployeesPage, { expiryParam } from '.';
import { licenceOptions, toEmployeeBody } from './EmployeeForm';

const base = {
  groupId: 1,
  groupName: '华东分公司',
  licenceClasses: 'A2',
  licenceExpiry: '2028-01-01',
  qualNo: 'Q1',
  qualKind: 1,
  state: 1,
  hasPhoto: false,
  duties: [],
  remark: '',
  updatedAt: '2026-03-01 08:00:00',
  expiresOn: '',
};
const people: Employee[] = [
  { ...base, id: 1, name: '钱海峰', idCard: '11010519491231002X', phone: '13712340000', roles: 3, qualExpiry: '2026-02-20', expiry: 'expired' },
  { ...base, id: 2, name: '杨秀英', idCard: '320106198506120048', phone: '13712340001', roles: 2, qualExpiry: '2026-03-20', expiry: 'expiring' },
  { ...base, id: 3, name: '陈志明', idCard: '310104197003150011', phone: '13910012345', roles: 1, qualExpiry: '2027-05-01', expiry: 'valid' },
];

const api = vi.hoisted(() => ({ employeePage: vi.fn(), employeeSummary: vi.fn(), employeeDelete: vi.fn(), employeeSave: vi.fn() }));
vi.mock('../../../api/staff', async (orig) => ({ ...(await orig<typeof import('../../../api/staff')>()), ...api }));
vi.mock('../../../api/group', () => ({ groupTrees: vi.fn().mockResolvedValue([{ id: 1, parentId: null, name: '华东分公司', code: 'G1', children: [] }]) }));

const SLOW = { timeout: 5000 };

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.employeePage.mockResolvedValue({ list: people, total: 3, pageNum: 1, pageSize: 10 } satisfies Page<Employee>);
  api.employeeSummary.mockResolvedValue({ expired: 1, expiring: 1, total: 3 });
});

describe('staff logic', () => {
  it('checks ID numbers like the server (GB 11643)', () => {
    expect(validIDCard('11010519491231002x')).toBe(true);
    expect(validIDCard('110105194912310021')).toBe(false);
    expect(validIDCard('11010519490230002X')).toBe(false); // 30 February
    expect(validIDCard('1101051949123100')).toBe(false);
  });
  it('turns roles into a bit set and back, and moves steps', () => {
    expect(bitsOf([1, 4])).toBe(5);
    expect(rolesOf(10)).toEqual([2, 8]);
    expect(moveStep(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveStep(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
  it('reads the expiry filter of a link and builds the save body', () => {
    expect(expiryParam('expired')).toBe('expired');
    expect(expiryParam('<script>')).toBeUndefined();
    const body = toEmployeeBody({ name: ' 张三 ', idCard: '11010519491231002x', phone: '13712340000', roles: [1, 2], licenceClasses: ['A2', 'B2'] });
    expect(body).toMatchObject({ name: '张三', idCard: '11010519491231002X', roles: 3, licenceClasses: 'A2,B2', licenceExpiry: '', qualKind: 0, state: 1 });
  });
});

describe('employees page', { timeout: 180_000 }, () => {
  it('marks expired and expiring rows, shows the counts and filters by clicking one', async () => {
    renderPage(<EmployeesPage />, 'employees', ['add', 'edit', 'delete']);
    const expired = (await screen.findByText('钱海峰', {}, SLOW)).closest('tr')!;
    expect(expired.className).toContain('tw-staff-expired');
    expect(within(expired).getByText('已过期')).toBeTruthy();
    expect(screen.getByText('杨秀英').closest('tr')!.className).toContain('tw-staff-expiring');
    expect(screen.getByText('陈志明').closest('tr')!.className).not.toContain('tw-staff-');
    fireEvent.click(await screen.findByTestId('sum-expired', {}, SLOW));
    await waitFor(() => expect(api.employeePage).toHaveBeenLastCalledWith(expect.objectContaining({ expiry: 'expired', pageNum: 1 })), SLOW);
  });

  it('hides add, edit and delete without their buttons', async () => {
    renderPage(<EmployeesPage />, 'employees', []);
    await screen.findByText('钱海峰', {}, SLOW);
    expect(screen.queryByRole('button', { name: /新增员工/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /编\s*辑/ })).toBeNull();
  });
});

describe('licence classes from the code list', () => {
  const item = (code: string, enabled = true) => ({ id: 0, type: 'licenceClass' as const, code, labelZh: `${code} 中文`, labelTw: `${code} 繁體`, labelEn: `${code} en`, sort: 0, enabled, builtin: true, updatedAt: 0 });
  it('offers the enabled classes and those held, labelled in the language; the built-ins until the list answers', () => {
    const items = [item('A2'), item('B2', false), item('Q')];
    expect(licenceOptions(items, 'zh-CN')).toEqual([{ value: 'A2', label: 'A2 中文' }, { value: 'Q', label: 'Q 中文' }]);
    expect(licenceOptions(items, 'en-US', 'A2,B2').map((o) => o.label)).toEqual(['A2 en', 'B2 en', 'Q en']);
    expect(licenceOptions(undefined, 'zh-CN')[0]).toEqual({ value: 'A1', label: 'A1' });
  });
});
