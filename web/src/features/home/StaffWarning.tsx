import { IdcardOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { employeeSummary } from '../../api/staff';
import { useAppStore } from '../../app/store';
import { menuHasCode } from '../../lib/cockpit';

const EMPLOYEES_CODE = '03-08';

/**
 * The staff certificates warning (issue 18): people whose licence or dangerous-goods qualification has
 * expired or expires within 30 days; each count opens the employees page filtered. One small request,
 * made only for users who may open that page; nothing is shown while every certificate is valid, so the
 * count cards below keep their place.
 */
export function StaffWarning() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const may = useAppStore((s) => menuHasCode(s.authMenu, EMPLOYEES_CODE));
  const q = useQuery({ queryKey: ['employeeSummary'], queryFn: () => employeeSummary(), enabled: may, staleTime: 60_000 });
  const s = q.data;
  if (!may || !s || (s.expired === 0 && s.expiring === 0)) return null;
  return (
    <div className="tw-staff-warning" role="status" data-testid="home-staff-warning">
      <IdcardOutlined />
      <span>{t('staff.homeTitle')}</span>
      {s.expired > 0 && (
        <Tag color="error" onClick={() => navigate('/basedata/employees?expiry=expired')} data-testid="home-staff-expired">
          {t('staff.homeExpired')} {s.expired}
        </Tag>
      )}
      {s.expiring > 0 && (
        <Tag color="warning" onClick={() => navigate('/basedata/employees?expiry=expiring')} data-testid="home-staff-expiring">
          {t('staff.homeExpiring')} {s.expiring}
        </Tag>
      )}
    </div>
  );
}
