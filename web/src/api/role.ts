import { get, post } from './client';
import type { MenuNode, Page, PageQuery, Role } from './types';

export interface RoleQuery extends PageQuery {
  name?: string;
}

export interface RoleInsert {
  name: string;
  remark: string;
  groupId: number;
  resourceCodes: string[];
}

export const pageRoles = (q: RoleQuery) => post<Page<Role>>('/authority-app/roleInfo/page', q);
export const roleDetail = (id: number) => get<Role>('/authority-app/roleInfo/detail', { id });
export const listRoles = (show = true) => post<Role[]>('/authority-app/roleInfo/list', {}, show);
export const insertRole = (body: RoleInsert) => post<Role>('/authority-app/roleInfo/insert', body);
export const updateRole = (body: RoleInsert & { id: number }) => post<Role>('/authority-app/roleInfo/update', body);
export const deleteRoles = (ids: number[]) => post<number>('/authority-app/roleInfo/deleteByIds', { ids }, false);
/** The full menu/button tree the caller may grant. */
export const grantableTree = () => get<MenuNode[]>('/authority-app/resourceInfo/findTrees');
