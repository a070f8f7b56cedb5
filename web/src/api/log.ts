import { post } from './client';
import { exportFile } from './export';
import type { OperationLogEntry, Page, PageQuery } from './types';

export interface OperationLogQuery extends PageQuery {
  userName?: string;
  module?: string;
  action?: string;
  target?: string;
  startTime?: string;
  endTime?: string;
}

export const pageOperationLog = (q: OperationLogQuery) => post<Page<OperationLogEntry>>('/authority-app/operationLog/page', q);
export const exportOperationLog = (q: Omit<OperationLogQuery, 'pageNum' | 'pageSize'>) =>
  exportFile({ url: '/authority-app/operationLog/export', method: 'POST', data: q, fallbackName: 'operation-log.xlsx' });
