import { post } from './client';
import type { Page, PageQuery } from './types';

/** Sensor registry (docs/API.md "Sensors"; decoders in docs/PROTOCOL.md). */
export const DECODERS = ['level', 'lock'] as const;
export type Decoder = (typeof DECODERS)[number];

export interface Sensor {
  id: number;
  groupId: number;
  groupName: string;
  name: string;
  /** Total message length in bytes (identification + payload); 0 = not checked. */
  length: number;
  /** Peripheral identification ID, upper-case hex (e.g. "A1"). */
  identification: string;
  decoder: Decoder;
  remark: string;
  createdAt: string;
  updatedAt: string;
}

export interface SensorInput {
  id?: number;
  groupId?: number;
  name: string;
  length: number;
  identification: string;
  decoder: Decoder;
  remark?: string;
}

export interface SensorQuery extends PageQuery {
  name?: string;
}

export const pageSensors = (q: SensorQuery) => post<Page<Sensor>>('/base-info-app/sensor/page', q);
export const addSensor = (body: SensorInput) => post<Sensor>('/base-info-app/sensor/add', body);
export const updateSensor = (body: SensorInput & { id: number }) => post<Sensor>('/base-info-app/sensor/update', body);
/** One id per call (spec: sensor deletion takes a single id); no warning here, ConfirmDelete shows the failure. */
export const deleteSensor = (id: number) => post<null>('/base-info-app/sensor/delete', { id }, false);
