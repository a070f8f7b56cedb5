import { get, post } from './client';
import type { Page, PageQuery } from './types';

/** System messages (internal/messaging, docs/API.md "System messages"). */
export interface SentMessage {
  id: number;
  title: string;
  content: string;
  senderName: string;
  targets: { users: string[] | null; groups: string[] | null };
  recipients: number;
  read: number;
  createdAt: string;
}

export interface ReceivedMessage {
  id: number;
  title: string;
  content: string;
  senderName: string;
  createdAt: string;
  readAt: string | null;
}

export interface SentQuery extends PageQuery {
  title?: string;
  senderName?: string;
  startTime?: string;
  endTime?: string;
}

export interface SendInput {
  title: string;
  content: string;
  userIds: number[];
  groupIds: number[];
}

export interface UserOption {
  id: number;
  name: string;
  nickName: string;
  groupName: string;
  online: boolean;
}

export const pageMessages = (q: SentQuery) => post<Page<SentMessage>>('/authority-app/message/page', q);
export const sendMessage = (body: SendInput) => post<{ id: number; recipients: number; online: number }>('/authority-app/message/send', body);
export const messageUsers = (name?: string) => get<UserOption[]>('/authority-app/message/users', name ? { name } : undefined);
export const receivedMessages = (q: PageQuery & { unread?: boolean }) => post<Page<ReceivedMessage>>('/authority-app/message/received', q);
export const markRead = (ids: number[]) => post<{ read: number }>('/authority-app/message/read', { ids });
