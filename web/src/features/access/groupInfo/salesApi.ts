import { post } from '../../../api/client';
import type { Group } from '../../../api/types';

/** Sales companies and their carriers (docs/API.md "Waybill base data"). */
export interface SalesPair {
  salesGroupId: number;
  salesGroupName: string;
  transGroupId: number;
  transGroupName: string;
}

export interface SalesCompanyInput {
  parentId?: number;
  name: string;
  code?: string;
  contact?: string;
  phone?: string;
  address?: string;
}

export const addSalesCompany = (body: SalesCompanyInput) => post<Group>('/authority-app/groupInfo/addSalesCompany', body);
export const setSales = (id: number, sales: boolean) => post<Group>('/authority-app/groupInfo/addSalesCompany', { id, sales });
export const bindCarriers = (salesGroupId: number, transGroupIds: number[]) =>
  post<SalesPair[]>('/base-info-app/baseSalesTrans/bindSalesAndTrans', { salesGroupId, transGroupIds });
export const findSalesPairs = (q: { salesGroupId?: number; transGroupId?: number }) => post<SalesPair[]>('/base-info-app/baseSalesTrans/findList', q);
