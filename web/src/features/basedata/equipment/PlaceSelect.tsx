import { useQuery } from '@tanstack/react-query';
import { Select, type SelectProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { findPlaces, type Place } from '../../../api/equipment';

/** Debounces a changing value. */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = window.setTimeout(() => setV(value), ms);
    return () => window.clearTimeout(id);
  }, [value, ms]);
  return v;
}

export interface PlaceSelectProps extends Omit<SelectProps<number>, 'options' | 'onSearch' | 'filterOption' | 'showSearch'> {
  which: 'cars' | 'stations';
  /** The current place (editing), so that its name shows before any search. */
  current?: Place;
}

/** A car (by plate) or station (by name) of the caller's scope, searched as typed; value is the id. */
export function PlaceSelect({ which, current, ...props }: PlaceSelectProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const search = useDebounced(text.trim(), 250);
  const q = useQuery({ queryKey: ['equipment', 'places', search], queryFn: () => findPlaces(search), staleTime: 30_000 });
  const found = q.data?.[which] ?? [];
  const list = current && current.id && !found.some((p) => p.id === current.id) ? [current, ...found] : found;
  return (
    <Select<number>
      showSearch
      allowClear
      filterOption={false}
      onSearch={setText}
      loading={q.isFetching}
      placeholder={t(which === 'cars' ? 'equipment.pickCar' : 'equipment.pickStation')}
      notFoundContent={q.isFetching ? t('common.loading') : t('common.empty')}
      popupMatchSelectWidth={false}
      options={list.map((p) => ({ value: p.id, label: p.name, group: p.groupName }))}
      optionRender={(o) => (
        <span>
          {o.label} <span style={{ color: '#999', fontSize: 12 }}>{(o.data as { group: string }).group}</span>
        </span>
      )}
      {...props}
    />
  );
}
