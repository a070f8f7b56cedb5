import { get, post } from './client';
import type { Page, PageQuery, User } from './types';

export interface UserQuery extends PageQuery {
  name?: string;
  nickName?: string;
  phone?: string;
  groupId?: number;
  status?: number;
}

export interface UserInsert {
  name: string;
  nickName: string;
  password: string;
  phone: string;
  email: string;
  platform: boolean;
  groupId?: number;
  roleIds?: number[];
  status?: number;
  expireAt?: string | null;
}

export type UserUpdate = Omit<UserInsert, 'password'> & { id: number };

/** Spec §5: a new user starts from these defaults, overwritten by the caller's values. */
export function newUser(values: Partial<UserInsert> = {}): UserInsert {
  return { name: '', nickName: '', password: '', phone: '', email: '', platform: false, ...values };
}

export const pageUsers = (q: UserQuery) => post<Page<User>>('/authority-app/userInfo/page', q);
export const userDetail = (id: number) => get<User>('/authority-app/userInfo/detail', { id });
export const insertUser = (body: UserInsert) => post<User>('/authority-app/userInfo/insert', body);
export const updateUser = (body: UserUpdate) => post<User>('/authority-app/userInfo/update', body);
export const deleteUsers = (ids: number[]) => post<number>('/authority-app/userInfo/deleteByIds', { ids }, false);
export const resetPassword = (id: number) => get<{ password: string }>('/authority-app/userInfo/resetPassword', { id });
export const unlockUser = (id: number) => post<null>('/authority-app/userInfo/unlock', { id });
export const updateUserStatus = (id: number, status: 0 | 1) => post<User>('/authority-app/userInfo/updateStatus', { id, status });
