import { get, post } from '../../../api/client';
import type { Page, PageQuery } from '../../../api/types';

/** Customers and the oil stations they own (docs/API.md "Waybill base data"). */
export interface Customer {
  id: number;
  code: string;
  name: string;
  groupId: number;
  stationIds: number[];
  groupName?: string;
  contact?: string;
  phone?: string;
  address?: string;
  remark?: string;
  stationNames?: string[];
  cars: number;
  updatedAt?: string;
}

export interface CustomerInput {
  id?: number;
  groupId?: number;
  code: string;
  name: string;
  contact: string;
  phone: string;
  address: string;
  remark: string;
  stationIds: number[];
}

export interface CustomerQuery extends PageQuery {
  name?: string;
  groupId?: number;
  stationId?: number;
}

/** An oil station of the caller's scope and the customer owning it. */
export interface StationOption {
  id: number;
  name: string;
  groupName: string;
  customerId: number | null;
  customerName: string;
}

export const pageCustomers = (q: CustomerQuery) => post<Page<Customer>>('/base-info-app/customer/page', q);
export const listCustomers = () => get<Customer[]>('/base-info-app/customer/list');
export const customerStations = () => get<StationOption[]>('/base-info-app/customer/stations');
export const addCustomer = (body: CustomerInput) => post<Customer>('/base-info-app/customer/add', body);
export const updateCustomer = (body: CustomerInput & { id: number }) => post<Customer>('/base-info-app/customer/update', body);
export const deleteCustomer = (id: number) => post<null>('/base-info-app/customer/delete', { id }, false);
