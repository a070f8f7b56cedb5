import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { carCount } from '../../api/vehicleCounts';
import { useAppStore } from '../../app/store';
import { COCKPIT_REFRESH_MS, COUNT_CODES, MONITORING_CODE, countCardTarget, countsTime, menuHasCode, type CountCode } from '../../lib/cockpit';
import { zoneNow, zoneTime } from '../../lib/zone';
import { CountCard } from './CountCard';
import { StaffWarning } from './StaffWarning';
import { StatusBar } from './StatusBar';
import { WatchList } from './WatchList';
import './home.css';

/** Home cockpit (spec §1): the five vehicle counts of the user's scope, what needs attention. */
export default function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useAppStore((s) => s.session);
  const authMenu = useAppStore((s) => s.authMenu);
  useAppStore((s) => s.lang); // re-render the date on language change
  const name = session?.userNickName || session?.userName || '';
  const group = session?.groupName || session?.currentUserInfo?.groupName || '';
  const mayMonitor = menuHasCode(authMenu, MONITORING_CODE);

  const counts = useQuery({ queryKey: ['cockpit', 'carCount'], queryFn: () => carCount(), refetchInterval: COCKPIT_REFRESH_MS });
  // the server's clock on the platform's zone (Asia/Shanghai), whatever the browser's clock and zone say
  const takenAt = countsTime(counts.data, counts.dataUpdatedAt);
  const platformNow = takenAt ? zoneTime(takenAt) : zoneNow();

  const open = (code: CountCode) => {
    const to = countCardTarget(location.pathname, code, t(`home.count.${code}`), mayMonitor);
    if (to) navigate(to);
  };

  return (
    <div className="tw-page tw-home">
      <Card variant="borderless" className="tw-welcome">
        <div className="tw-home-head">
          <div>
            <Typography.Title level={3} style={{ margin: 0 }}>
              {t('home.greeting', { name })}
            </Typography.Title>
            <Typography.Text type="secondary">
              {group ? `${t('home.group', { group })} · ` : ''}
              {t('home.today', { date: platformNow.format('LL dddd') })}
            </Typography.Text>
          </div>
          <Space className="tw-home-updated" size={8}>
            <Typography.Text type="secondary" data-testid="cockpit-updated">
              {takenAt ? t('home.updatedAt', { time: zoneTime(takenAt).format('HH:mm:ss') }) : ''}
            </Typography.Text>
            <Button size="small" icon={<ReloadOutlined />} loading={counts.isFetching} onClick={() => void counts.refetch()}>
              {t('home.refresh')}
            </Button>
          </Space>
        </div>
      </Card>

      <StaffWarning />

      <div className="tw-count-cards" data-testid="cockpit-counts">
        {COUNT_CODES.map((code) => (
          <CountCard
            key={code}
            code={code}
            counts={counts.data}
            loading={counts.isPending}
            failed={counts.isError && !counts.data}
            onOpen={mayMonitor ? () => open(code) : undefined}
          />
        ))}
      </div>

      <Card variant="borderless" className="tw-home-block" title={t('home.distribution')}>
        <StatusBar counts={counts.data} loading={counts.isPending} />
      </Card>

      <div className="tw-home-lists">
        <WatchList code="3" title={t('home.watchAbnormal')} empty={t('home.noAbnormal')} />
        <WatchList code="7" title={t('home.watchOffline')} empty={t('home.noOffline')} />
      </div>
    </div>
  );
}
