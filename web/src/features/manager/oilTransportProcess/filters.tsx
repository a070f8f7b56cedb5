import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEPOT, viewStations } from '../../../api/station';
import { STATES, type ProcessQuery } from '../../../api/transportProcess';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { VehiclePicker } from '../../../components/VehiclePicker';

/** Form values → request filters: the picker's range becomes start / end. */
export function toProcessFilters(values: Record<string, unknown>): Omit<ProcessQuery, 'pageNum' | 'pageSize'> {
  const { range, no, ...rest } = values as { range?: TimeRangeValue; no?: string } & Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  // a date-only range covers whole days
  if (range?.start) out.start = range.start.length === 10 ? `${range.start} 00:00:00` : range.start;
  if (range?.end) out.end = range.end.length === 10 ? `${range.end} 23:59:59` : range.end;
  if (typeof no === 'string' && no.trim()) out.no = no.trim();
  return out as Omit<ProcessQuery, 'pageNum' | 'pageSize'>;
}

/** Depots and stations the caller may see (viewStation), as select options. */
export function useStationOptions() {
  const q = useQuery({ queryKey: ['viewStations'], queryFn: viewStations, staleTime: 60_000 });
  const all = q.data ?? [];
  return {
    depots: all.filter((s) => s.stationType === DEPOT).map((s) => ({ value: s.id, label: s.stationName })),
    stations: all.filter((s) => s.stationType !== DEPOT).map((s) => ({ value: s.id, label: s.stationName })),
  };
}

/** The filters of the trip lists: time range, waybill number, car, state, depot, station. */
export function ProcessFilters({ states = STATES as readonly string[], rangeLabel, showTime = true }: { states?: readonly string[]; rangeLabel: string; showTime?: boolean }) {
  const { t } = useTranslation();
  const { depots, stations } = useStationOptions();
  const search = (input: string, o?: { label?: unknown }) => String(o?.label ?? '').includes(input);
  return (
    <>
      <Form.Item name="range" label={rangeLabel}>
        <TimeRangePicker showTime={showTime} includeOptional />
      </Form.Item>
      <Form.Item name="no" label={t('transportProcess.no')}>
        <Input allowClear style={{ width: 170 }} placeholder={t('common.all')} />
      </Form.Item>
      <Form.Item name="carId" label={t('transportProcess.plate')}>
        <VehiclePicker placeholder={t('common.all')} />
      </Form.Item>
      <Form.Item name="state" label={t('transportProcess.state')}>
        <Select allowClear placeholder={t('common.all')} style={{ width: 130 }} options={states.map((s) => ({ value: s, label: t(`waybillCommon.state.${s}`) }))} />
      </Form.Item>
      <Form.Item name="depotId" label={t('transportProcess.depot')}>
        <Select allowClear showSearch filterOption={search} placeholder={t('common.all')} style={{ width: 150 }} options={depots} />
      </Form.Item>
      <Form.Item name="stationId" label={t('transportProcess.station')}>
        <Select allowClear showSearch filterOption={search} placeholder={t('common.all')} style={{ width: 150 }} options={stations} />
      </Form.Item>
    </>
  );
}
