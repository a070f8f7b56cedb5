import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="tw-page">
      <Result
        status="404"
        title={t('menu.notFound')}
        subTitle={t('notFound.description')}
        extra={<Button type="primary" onClick={() => navigate('/home')}>{t('common.goHome')}</Button>}
      />
    </div>
  );
}
