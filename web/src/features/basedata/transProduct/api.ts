import { get, post } from '../../../api/client';
import type { Page, PageQuery } from '../../../api/types';

/** Products of the waybill chain (docs/API.md "Waybill base data"). */
export interface Product {
  id: number;
  code: string;
  name: string;
  grade: string;
  /** Tank product code 0–4 (fuel type). */
  product: number;
  /** V20 family: 0 none, 1 gasoline, 2 diesel, 3 jet. */
  family: number;
  density20: number;
  k0: number | null;
  k1: number | null;
  groupId: number;
  groupName?: string;
  remark?: string;
  updatedAt?: string;
}

export interface ProductInput {
  id?: number;
  groupId?: number;
  code: string;
  name: string;
  grade: string;
  product: number;
  family: number;
  density20: number;
  k0: number | null;
  k1: number | null;
  remark: string;
}

export interface ProductQuery extends PageQuery {
  name?: string;
  product?: number;
  groupId?: number;
}

export const PRODUCTS = [0, 1, 2, 3, 4] as const;
export const FAMILIES = [0, 1, 2, 3] as const;
/** The family of a product code (tank.ProductFamily). */
export const familyOf = (product: number) => ({ 0: 2, 1: 1, 2: 1, 4: 3 })[product] ?? 0;
/** Typical density at 20 °C (tank.DefaultDensity20). */
export const defaultDensity = (product: number) => ({ 0: 840, 1: 735, 2: 740, 4: 795 })[product] ?? 0;

export const pageProducts = (q: ProductQuery) => post<Page<Product>>('/base-info-app/transProduct/page', q);
export const listProducts = () => get<Product[]>('/base-info-app/transProduct/list');
export const addProduct = (body: ProductInput) => post<Product>('/base-info-app/transProduct/add', body);
export const updateProduct = (body: ProductInput & { id: number }) => post<Product>('/base-info-app/transProduct/update', body);
export const deleteProduct = (id: number) => post<null>('/base-info-app/transProduct/delete', { id }, false);
