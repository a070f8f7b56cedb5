import { useQuery } from '@tanstack/react-query';
import { Form, Input, Spin, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { getAddress } from '../../../api/geocode';
import type { Coord } from '../../../api/history';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { isValidCoords } from '../../../lib/coords';
import { HISTORY_DEFAULTS } from './filters';

/** The filter bar items every history page starts with: vehicle (by plate) or terminal phone, and the time range. */
export function HistoryFields({ phone = true, vehicleRequired = true }: { phone?: boolean; vehicleRequired?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="carId" label={t('history.vehicle')} tooltip={vehicleRequired && phone ? t('history.vehicleOrPhone') : undefined}>
        <VehiclePicker />
      </Form.Item>
      {phone && (
        <Form.Item name="phone" label={t('history.phone')} rules={[{ pattern: /^\s*\d{0,20}\s*$/, message: t('history.phoneInvalid') }]}>
          <Input allowClear style={{ width: 150 }} placeholder={t('history.phonePlaceholder')} data-testid="phone-input" />
        </Form.Item>
      )}
      <Form.Item name="range" label={t('history.range')}>
        <TimeRangePicker showTime defaults={HISTORY_DEFAULTS} />
      </Form.Item>
    </>
  );
}

/** A monospace hex text, ellipsised, with a copy button. */
export function HexText({ hex, width }: { hex: string; width?: number }) {
  return (
    <Typography.Text className="tw-hex" copyable={{ text: hex }} ellipsis style={{ maxWidth: width, fontFamily: 'monospace', fontSize: 12 }}>
      {hex}
    </Typography.Text>
  );
}

/** The address of a point, looked up when the cell is shown (only for a valid position). */
export function AddressCell({ lng, lat }: { lng: Coord | number; lat: Coord | number }) {
  const { t } = useTranslation();
  const ok = isValidCoords(lng, lat);
  const q = useQuery({ queryKey: ['address', lng, lat], queryFn: () => getAddress(lng, lat), enabled: ok, staleTime: Infinity });
  if (!ok) return <Typography.Text type="secondary">{t('common.notLocated')}</Typography.Text>;
  if (q.isLoading) return <Spin size="small" />;
  if (q.isError) return <Typography.Text type="secondary">{t('history.addressFailed')}</Typography.Text>;
  return (
    <Tooltip title={q.data}>
      <span className="tw-address" data-testid="address-cell">
        {q.data}
      </span>
    </Tooltip>
  );
}
