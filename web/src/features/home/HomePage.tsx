import { Card, Result, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../app/store';
import { BuildIcon } from '../../components/BuildIcon';

/** Home: a welcome header; the cockpit (vehicle counts, spec §1) is built later. */
export default function HomePage() {
  const { t } = useTranslation();
  const session = useAppStore((s) => s.session);
  useAppStore((s) => s.lang); // re-render the date on language change
  const name = session?.userNickName || session?.userName || '';
  const group = session?.groupName || session?.currentUserInfo?.groupName || '';
  return (
    <div className="tw-page tw-home">
      <Card variant="borderless" className="tw-welcome">
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('home.greeting', { name })}
        </Typography.Title>
        <Typography.Text type="secondary">
          {group ? `${t('home.group', { group })} · ` : ''}
          {t('home.today', { date: dayjs().format('LL dddd') })}
        </Typography.Text>
      </Card>
      <Card variant="borderless" style={{ marginTop: 16 }}>
        <Result icon={<BuildIcon />} title={t('home.cockpitComing')} subTitle={t('notReady.description')} />
      </Card>
    </div>
  );
}
