import { useQuery } from '@tanstack/react-query';
import { Select, type SelectProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchCars, type CarOption } from '../api/history';

export interface VehiclePickerProps extends Omit<SelectProps<number>, 'options' | 'onSearch' | 'filterOption' | 'showSearch'> {
  /** Called with the chosen vehicle (or undefined when cleared). */
  onPick?: (car: CarOption | undefined) => void;
}

/** Debounces a changing value. */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = window.setTimeout(() => setV(value), ms);
    return () => window.clearTimeout(id);
  }, [value, ms]);
  return v;
}

/**
 * A vehicle of the caller's scope, searched by plate (the live findCars list, 20 at a time). `value`
 * is the car id, so it works as a Form.Item control.
 */
export function VehiclePicker({ onPick, onChange, ...props }: VehiclePickerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const search = useDebounced(text.trim(), 250);
  const [picked, setPicked] = useState<CarOption>();
  const cars = useQuery({ queryKey: ['vehiclePicker', search], queryFn: () => searchCars(search), staleTime: 30_000 });
  const found = cars.data?.list ?? [];
  // the chosen car stays an option while another search runs, so its plate keeps showing
  const list = picked && !found.some((c) => c.carId === picked.carId) ? [picked, ...found] : found;
  return (
    <Select<number>
      showSearch
      allowClear
      filterOption={false}
      onSearch={setText}
      loading={cars.isFetching}
      placeholder={t('history.vehiclePlaceholder')}
      notFoundContent={cars.isFetching ? t('common.loading') : t('history.noVehicle')}
      style={{ width: 200 }}
      popupMatchSelectWidth={false}
      data-testid="vehicle-picker"
      options={list.map((c) => ({ value: c.carId, label: c.plate, title: `${c.plate} · ${c.groupName}`, car: c }))}
      optionRender={(o) => (
        <span>
          {o.label} <span style={{ color: '#999', fontSize: 12 }}>{(o.data as { car: CarOption }).car.groupName}</span>
        </span>
      )}
      onChange={(v, opt) => {
        const car = list.find((c) => c.carId === v);
        setPicked(car);
        onChange?.(v, opt);
        onPick?.(car);
      }}
      {...props}
    />
  );
}
