import { call, get, post } from './client';
import type { Group, Page, ThemeName } from './types';

export interface GroupInput {
  parentId?: number | null;
  name: string;
  code?: string;
  contact?: string;
  phone?: string;
  address?: string;
  remark?: string;
}

export const groupTrees = (name?: string, show = true) => post<Group[]>('/authority-app/groupInfo/findTrees', name ? { name } : {}, show);
/** `id` is removed before sending (spec §7: add with id removed). */
export const addGroup = ({ ...body }: GroupInput & { id?: number }) => {
  delete body.id;
  return post<Group>('/authority-app/groupInfo/add', body);
};
export const addChildGroup = (body: GroupInput & { parentId: number }) => post<Group>('/authority-app/groupInfo/addChildren', body);
export const editGroup = (body: GroupInput & { id: number }) => post<Group>('/authority-app/groupInfo/edit', body);
export const deleteGroup = (id: number) => post<null>('/authority-app/groupInfo/delete', { id }, false);
export const findParents = (id: number) => get<number[]>('/authority-app/groupInfo/findParents', { id });
export const findAllChildren = (id: number) => post<Group[]>('/authority-app/groupInfo/findAllChildren', { id });
export const findAllChildrenPage = (q: { id: number; pageNum: number; pageSize: number; name?: string }) =>
  post<Page<Group>>('/authority-app/groupInfo/findAllChildrenPage', q);
export const editImgAndTittle = (body: { id: number; title?: string; logo?: string; theme?: ThemeName | '' }) =>
  post<Group>('/authority-app/groupInfo/editImgAndTittle', body);

/** A node of the caller's group tree with vehicles as leaves (groupInfo/findCars). */
export interface GroupCarNode {
  /** group id, or the car id for a car node */
  id: number;
  /** group name, or the plate for a car node */
  name: string;
  type: 'group' | 'car';
  plate?: string;
  groupId?: number;
  children: GroupCarNode[] | null;
}

/** The caller's group tree with vehicles as leaves (cars first under each group, then sub-groups). */
export const groupCarTree = (name?: string) =>
  call<GroupCarNode[]>({ method: 'POST', url: '/authority-app/groupInfo/findCars', data: name ? { name } : {}, silent: true }, false);
