import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/**
 * A page outside the user's role, opened by URL (an old bookmark, a link from a colleague): said once,
 * plainly, instead of mounting the page and letting each of its requests come back 403.
 */
export default function NoPermissionPage({ name, allScreen }: { name: string; allScreen?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className={allScreen ? 'tw-fullscreen-page' : 'tw-page'} data-testid="no-permission">
      <Result
        status="403"
        title={t('noPermission.title')}
        subTitle={t('noPermission.description', { page: t(`menu.${name}`) })}
        extra={
          <Button type="primary" onClick={() => navigate('/home')}>
            {t('common.goHome')}
          </Button>
        }
      />
    </div>
  );
}
