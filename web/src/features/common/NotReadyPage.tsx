import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePageHandle } from '../../app/routeMeta';
import { BuildIcon } from '../../components/BuildIcon';

/** The honest state of a page whose capability is not built yet. */
export default function NotReadyPage() {
  const { t } = useTranslation();
  const handle = usePageHandle();
  const navigate = useNavigate();
  const name = handle?.name ?? 'notFound';
  return (
    <div className={handle?.allScreen ? 'tw-fullscreen-page' : 'tw-page'}>
      <Result
        status="info"
        icon={<BuildIcon />}
        title={t(`menu.${name}`)}
        subTitle={t('notReady.description')}
        extra={
          handle?.allScreen ? (
            <Button type="primary" onClick={() => navigate('/home')}>
              {t('common.goHome')}
            </Button>
          ) : undefined
        }
      />
    </div>
  );
}
