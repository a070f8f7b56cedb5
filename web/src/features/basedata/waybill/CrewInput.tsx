import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Form, type FormInstance } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { crewOptions } from '../../../api/staff';

/**
 * A driver or escort name: the eligible people of the staff register for the chosen car and loading day
 * (qualification valid, not on approved leave; picking one fills the phone too), or free text for
 * someone not in the register. The server checks a registered phone again (D60).
 */
export function CrewInput({
  form,
  role,
  nameField,
  phoneField,
  ...props
}: {
  form: FormInstance;
  role: 1 | 2;
  nameField: string;
  phoneField: string;
  value?: string;
  onChange?: (v: string) => void;
  'data-testid'?: string;
}) {
  const { t } = useTranslation();
  const carId = Form.useWatch<number | undefined>('carId', form);
  const load = Form.useWatch<Dayjs | undefined>('plannedLoadAt', form);
  const at = load?.valueOf() ?? 0;
  const q = useQuery({
    queryKey: ['waybillCrew', carId, role, at],
    queryFn: () => crewOptions(carId as number, role, at),
    enabled: !!carId,
    staleTime: 30_000,
  });
  const list = q.data ?? [];
  return (
    <AutoComplete
      allowClear
      value={props.value}
      onChange={(v: string) => props.onChange?.(v)}
      data-testid={props['data-testid']}
      options={list.map((o) => ({ value: `crew:${o.id}`, label: `${o.name} · ${o.phone}` }))}
      onSelect={(v: string) => {
        const o = list.find((c) => `crew:${c.id}` === v);
        if (o) form.setFieldsValue({ [nameField]: o.name, [phoneField]: o.phone });
      }}
      filterOption={(input, opt) => String(opt?.label ?? '').includes(input.trim())}
      placeholder={carId ? (list.length ? t('staff.crewPick') : t('staff.crewNone')) : undefined}
    />
  );
}
