import { useQuery } from '@tanstack/react-query';
import { Alert, Form, InputNumber, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { searchCars, type CarOption } from '../../../api/history';
import { DEFAULT_VALID_HOURS, MAX_PUSH_CARS, pushPackage, type UpgradePackage } from './api';

interface Values {
  carIds: number[];
  validHours: number;
}

/** Push of a package to vehicles of the user's scope (their terminals), at most MAX_PUSH_CARS at a time. */
export function PushModal({ pkg, onClose, onSaved }: { pkg: UpgradePackage; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [known, setKnown] = useState<Record<number, CarOption>>({});
  useEffect(() => {
    const id = window.setTimeout(() => setSearch(text.trim()), 250);
    return () => window.clearTimeout(id);
  }, [text]);
  const cars = useQuery({ queryKey: ['upgradePackCars', search], queryFn: () => searchCars(search), staleTime: 30_000 });
  const found = cars.data?.list ?? [];
  useEffect(() => {
    if (found.length) setKnown((k) => ({ ...k, ...Object.fromEntries(found.map((c) => [c.carId, c])) }));
  }, [cars.data]); // eslint-disable-line react-hooks/exhaustive-deps
  const chosen: number[] = Form.useWatch('carIds', form) ?? [];
  const options = [...chosen.filter((id) => !found.some((c) => c.carId === id)).map((id) => known[id]).filter(Boolean), ...found].map((c) => ({
    value: c.carId,
    label: c.plate,
    title: `${c.plate} · ${c.groupName}`,
  }));
  const save = async (v: Values) => {
    const res = await pushPackage(pkg.id, v.carIds, v.validHours);
    return res;
  };
  return (
    <FormModal form={form} name="upgradePush" title={t('firmware.pushTitle', { version: pkg.version })} isAdd save={save} onClose={onClose} onSaved={onSaved} labelWidth={110}>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('firmware.pushHint', { n: MAX_PUSH_CARS })} />
      <Form.Item
        name="carIds"
        label={t('firmware.cars')}
        rules={[
          { required: true, message: t('firmware.carsRequired') },
          { type: 'array', max: MAX_PUSH_CARS, message: t('firmware.carsMax', { n: MAX_PUSH_CARS }) },
        ]}
      >
        <Select<number[]>
          mode="multiple"
          showSearch
          filterOption={false}
          onSearch={setText}
          loading={cars.isFetching}
          placeholder={t('firmware.carsPlaceholder')}
          notFoundContent={cars.isFetching ? t('common.loading') : t('firmware.noCar')}
          options={options}
          data-testid="push-cars"
        />
      </Form.Item>
      <Form.Item name="validHours" label={t('firmware.validHours')} initialValue={DEFAULT_VALID_HOURS} extra={t('firmware.validHoursHint')} rules={[{ required: true }]}>
        <InputNumber min={1} max={720} precision={0} addonAfter={t('firmware.hours')} />
      </Form.Item>
    </FormModal>
  );
}
