import { Space, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { DecodedTank } from '../../../api/history';
import { compartmentStatus, DEVICE_KINDS, parseLockState, summarize, type CompartmentLock, type CompartmentStatus } from '../../../lib/lockState';

export const STATUS_COLOR: Record<CompartmentStatus, string> = { fault: 'red', open: 'orange', locked: 'green', closed: 'blue' };

/** "开 1 / 关 3 · 锁 2 · 故障 0" for a compartment. */
export function summaryText(t: TFunction, c: CompartmentLock): string {
  const s = summarize(c);
  return t('sensorRecord.summary', { open: s.open, closed: s.closed, locked: s.locked, fault: s.fault });
}

/** The lock-state string as the decoded tank of the raw data (device names translated), for its compartment table. */
export function tankOf(t: TFunction, lockState: string): DecodedTank {
  return {
    compartments: parseLockState(lockState).map((c) => ({
      no: c.no,
      devices: c.devices.map((d, i) => ({ ...d, name: t(`sensorRecord.kind.${DEVICE_KINDS[i]}`) })),
    })),
  };
}

/** One tag per compartment, coloured by its most urgent state, with the counts. */
export function LockSummary({ lockState }: { lockState: string }) {
  const { t } = useTranslation();
  const comps = parseLockState(lockState);
  if (!lockState) return <Typography.Text type="secondary">—</Typography.Text>;
  if (comps.length === 0) return <Typography.Text type="secondary">{t('sensorRecord.noDevices')}</Typography.Text>;
  return (
    <Space size={[4, 4]} wrap data-testid="lock-summary">
      {comps.map((c) => {
        const status = compartmentStatus(summarize(c));
        return (
          <Tooltip key={c.no} title={summaryText(t, c)}>
            <Tag color={STATUS_COLOR[status]} style={{ marginInlineEnd: 0 }}>
              {t('history.compartmentNo', { no: c.no })} {t(`sensorRecord.status.${status}`)}
            </Tag>
          </Tooltip>
        );
      })}
    </Space>
  );
}
