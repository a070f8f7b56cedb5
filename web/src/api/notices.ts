import { post } from './client';
import type { Page, PageQuery } from './types';

/** Text templates (/authority-app/noticeTemplate/, access/editTemp 06-12, D68). */
const P = '/authority-app/noticeTemplate/';

export interface TemplateKey {
  /** 0: platform-wide. */
  groupId: number;
  kind: string;
  lang: string;
}

export interface NoticeTemplate extends TemplateKey {
  id: number;
  groupName: string;
  kindName: string;
  channel: 'terminal' | 'console';
  body: string;
  builtin: boolean;
  default: string;
  updatedBy: string;
  updatedAt: string;
}

export interface TemplateKind {
  name: string;
  title: string;
  channel: 'terminal' | 'console';
  langs: string[];
  placeholders: string[];
  samples: Record<string, string>;
  limit: number;
  routeCore?: string;
  routeReserve?: number;
}

export interface TemplatePreview {
  text: string;
  length: number;
  error: string;
}

export interface TemplateQuery extends PageQuery {
  groupId?: number;
  kind?: string;
  lang?: string;
}

export const templatePage = (q: TemplateQuery) => post<Page<NoticeTemplate>>(P + 'page', q);
export const templateKinds = () => post<TemplateKind[]>(P + 'kinds', {});
export const templatePreview = (v: TemplateKey & { body: string }) => post<TemplatePreview>(P + 'preview', v, false);
export const templateAdd = (v: TemplateKey & { body: string }) => post<NoticeTemplate>(P + 'add', v);
export const templateEdit = (v: TemplateKey & { body: string }) => post<NoticeTemplate>(P + 'edit', v);
export const templateReset = (k: TemplateKey) => post<NoticeTemplate>(P + 'reset', k);
export const templateDelete = (k: TemplateKey) => post<null>(P + 'delete', k);
