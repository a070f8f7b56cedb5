import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { groupTrees } from '../../../api/group';
import { useAppStore } from '../../../app/store';
import { BrandingForm, type Branding } from '../groupInfo/BrandingForm';
import { findGroup } from '../groupInfo/groupTree';

/** 标题与标志: the signed-in user's top group's title, theme and logo (button updateLogo-edit). */
export default function UpdateLogoPage() {
  const { t } = useTranslation();
  const session = useAppStore((s) => s.session);
  const topId = session?.topGroupId ?? session?.groupId;
  // The group's own values (not inherited ones) when the top group is in the caller's scope.
  const tree = useQuery({ queryKey: ['groupTrees', 'quiet'], queryFn: () => groupTrees(undefined, false), retry: false });
  if (!session || topId == null) return null;
  if (tree.isLoading) {
    return (
      <div className="tw-page">
        <Card variant="borderless" style={{ maxWidth: 760 }}>
          <Skeleton active />
        </Card>
      </div>
    );
  }
  const own = findGroup(tree.data, topId);
  const group: Branding = own ?? {
    id: topId,
    title: session.indexTitle,
    logo: session.indexLogo?.startsWith('/authority-app/') ? session.indexLogo : '',
    theme: session.theme,
  };
  return (
    <div className="tw-page">
      <Card variant="borderless" title={t('updateLogo.title')} style={{ maxWidth: 760 }}>
        <Alert type="info" showIcon message={t('updateLogo.hint', { name: own?.name ?? session.groupName })} style={{ marginBottom: 24 }} />
        <BrandingForm key={`${group.id}-${group.logo}-${group.title}-${group.theme}`} group={group} code="updateLogo-edit" onPath onSaved={() => void tree.refetch()} />
      </Card>
    </div>
  );
}
