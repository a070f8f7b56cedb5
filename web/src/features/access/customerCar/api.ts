import { post } from '../../../api/client';
import type { Page, PageQuery } from '../../../api/types';

/** Customers' own cars (docs/API.md "Waybill base data"). */
export interface CustomerCar {
  id: number;
  customerId: number;
  customerName: string;
  groupName: string;
  plate: string;
  carType: string;
  capacityL: number;
  compartments: number;
  driverName: string;
  driverPhone: string;
  remark: string;
  updatedAt: string;
}

export interface CustomerCarInput {
  id?: number;
  customerId: number;
  plate: string;
  carType: string;
  capacityL: number;
  compartments: number;
  driverName: string;
  driverPhone: string;
  remark: string;
}

export interface CustomerCarQuery extends PageQuery {
  customerId?: number;
  plate?: string;
  driverName?: string;
}

/** The car registry's plate rule (internal/fleet), after the server's normalisation (upper case, dot optional). */
export const PLATE_RE = /^[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-Z][·・.\s-]?([A-Z0-9]{5,6}|[A-Z0-9]{4}挂)$/;

export const pageCustomerCars = (q: CustomerCarQuery) => post<Page<CustomerCar>>('/base-info-app/customerCar/page', q);
export const addCustomerCar = (body: CustomerCarInput) => post<CustomerCar>('/base-info-app/customerCar/add', body);
export const updateCustomerCar = (body: CustomerCarInput & { id: number }) => post<CustomerCar>('/base-info-app/customerCar/update', body);
export const deleteCustomerCar = (id: number) => post<null>('/base-info-app/customerCar/delete', { id }, false);
