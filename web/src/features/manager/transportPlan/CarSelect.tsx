import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchCars } from '../../../api/history';

/** A vehicle chooser (plate search) that keeps showing the plate of a car already chosen (`known`). */
export function CarSelect({ value, onChange, known, disabled, id }: { value?: number; onChange?: (v: number) => void; known?: { id: number; plate: string }; disabled?: boolean; id?: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const cars = useQuery({ queryKey: ['planCarSelect', text], queryFn: () => searchCars(text.trim()), staleTime: 30_000 });
  const found = (cars.data?.list ?? []).map((c) => ({ value: c.carId, label: c.plate }));
  const options = known && !found.some((o) => o.value === known.id) ? [{ value: known.id, label: known.plate }, ...found] : found;
  return (
    <Select<number>
      id={id}
      data-testid="plan-car"
      showSearch
      filterOption={false}
      onSearch={setText}
      value={value}
      onChange={(v) => onChange?.(v)}
      options={options}
      disabled={disabled}
      placeholder={t('transportPlan.car')}
      style={{ width: 150 }}
      loading={cars.isFetching}
    />
  );
}
