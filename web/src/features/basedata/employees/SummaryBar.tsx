import { ExclamationCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { employeeSummary } from '../../../api/staff';

/** The counts of on-duty people by expiry state; a click filters the list (the home tile opens the page the same way). */
export function SummaryBar({ active, onPick }: { active?: string; onPick: (expiry: string | undefined) => void }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['employeeSummary'], queryFn: () => employeeSummary() });
  const s = q.data;
  if (!s) return null;
  return (
    <div className="tw-staff-summary" data-testid="staff-summary">
      <ExclamationCircleOutlined style={{ color: s.expired > 0 ? '#ff4d4f' : s.expiring > 0 ? '#faad14' : '#52c41a' }} />
      <Tag color={active === 'expired' ? 'red' : s.expired > 0 ? 'error' : 'default'} onClick={() => onPick(active === 'expired' ? undefined : 'expired')} data-testid="sum-expired">
        {t('staff.sumExpired', { n: s.expired })}
      </Tag>
      <Tag color={active === 'expiring' ? 'orange' : s.expiring > 0 ? 'warning' : 'default'} onClick={() => onPick(active === 'expiring' ? undefined : 'expiring')} data-testid="sum-expiring">
        {t('staff.sumExpiring', { n: s.expiring })}
      </Tag>
      <Tag color={!active ? 'blue' : 'default'} onClick={() => onPick(undefined)}>
        {t('staff.sumTotal', { n: s.total })}
      </Tag>
    </div>
  );
}
