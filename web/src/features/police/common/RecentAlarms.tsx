import { useQuery } from '@tanstack/react-query';
import { Empty, List, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { alarmsByCar } from '../../../api/alarm';
import { LevelTag, StateTag } from './alarmUi';

/** A car's most recent alarm records (findListByCarId), for the monitoring detail; `version` refreshes them. */
export function RecentAlarms({ carId, version, limit = 5 }: { carId: number; version?: string | null; limit?: number }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({
    queryKey: ['alarm', 'byCar', carId, limit, i18n.language],
    queryFn: () => alarmsByCar(carId, limit),
    staleTime: 10_000,
  });
  // a new version refreshes the list without restarting a refresh under way (with the version in the
  // key, a car reporting faster than the server answered left the list empty for ever)
  const { refetch } = q;
  const v = version ?? null;
  useEffect(() => {
    if (v !== null) void refetch({ cancelRefetch: false });
  }, [v, refetch]);
  if (q.isPending) return null;
  if (q.isError) return <Typography.Text type="secondary">{t('common.requestFailed')}</Typography.Text>;
  if (q.data.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarm.noRecent')} />;
  return (
    <List
      size="small"
      data-testid="detail-recent-alarms"
      dataSource={q.data}
      renderItem={(a) => (
        <List.Item style={{ paddingInline: 0 }}>
          <div style={{ width: '100%' }}>
            <div style={{ display: 'flex', gap: 6, alignItems: 'center', flexWrap: 'wrap' }}>
              <LevelTag level={a.level} />
              <strong>{a.typeName}</strong>
              <StateTag state={a.state} />
            </div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {a.startTime}
              {a.endTime && a.endTime !== a.startTime ? ` – ${a.endTime}` : ''}
              {a.detail ? ` · ${a.detail}` : ''}
            </Typography.Text>
          </div>
        </List.Item>
      )}
    />
  );
}
