import { post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/**
 * Transport differences (docs/API.md "Transport process", DECISIONS D45): trips over their loss
 * allowance, openings on the way, seals that did not match, departures unsealed — and their review.
 */

/** Difference kinds (waybill.Diff*): 1 loss over allowance, 2 opening on the way, 3 seal mismatch, 4 left unsealed. */
export const DIFF_KINDS = [1, 2, 3, 4] as const;

export interface DiffQuery extends PageQuery {
  groupId?: number;
  carId?: number;
  kind?: number;
  /** 0 open, 1 reviewed; absent: both */
  status?: number;
  waybillNo?: string;
  startTime?: string;
  endTime?: string;
}

export interface DiffRecord {
  id: number;
  waybillId: number;
  waybillNo: string;
  waybillState: string;
  carId: number;
  plate: string;
  groupName: string;
  kind: number;
  kindName: string;
  time: string;
  lossL: number;
  lossRatePct: number;
  allowedPct: number;
  /** The evidence as stored (JSON). */
  evidence: string;
  /** The evidence in the caller's language, e.g. "2 号仓卸油阀 03-01 14:03 打开 120.75,30.76". */
  evidenceText: string;
  status: number;
  statusName: string;
  reviewerName: string;
  reviewedAt: string | null;
  reviewReason: string;
}

export const diffPage = (q: DiffQuery) => post<Page<DiffRecord>>('/monitor-app/realTimeMoitoring/getDiffDataStatusPage', q);
export const diffExport = (filters: object): ExportRequest => ({ url: '/monitor-app/bizDiffRecord/export', method: 'POST', data: filters });
export const reviewDiff = (id: number, reason: string) => post<null>('/monitor-app/bizDiffRecord/review', { id, reason });
