import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { groupTrees } from '../../../api/group';
import { useAppStore } from '../../../app/store';
import { BrandingForm, type Branding } from '../groupInfo/BrandingForm';
import { findGroup } from '../groupInfo/groupTree';

/**
 * 标题与标志: the title, theme and logo of the signed-in user's own group (button updateLogo-edit).
 * A subsidiary brands its own group; the platform group (what every tenant inherits) is edited by its
 * own users, the platform administrators — the server refuses anyone else (D29).
 */
export default function UpdateLogoPage() {
  const { t } = useTranslation();
  const session = useAppStore((s) => s.session);
  const groupId = session?.groupId;
  // The group's own values (not inherited ones), read from the caller's tree.
  const tree = useQuery({ queryKey: ['groupTrees', 'quiet'], queryFn: () => groupTrees(undefined, false), retry: false });
  if (!session || groupId == null) return null;
  if (tree.isLoading) {
    return (
      <div className="tw-page">
        <Card variant="borderless" style={{ maxWidth: 760 }}>
          <Skeleton active />
        </Card>
      </div>
    );
  }
  const own = findGroup(tree.data, groupId);
  const group: Branding = own ?? {
    id: groupId,
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
