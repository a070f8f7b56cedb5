import NotReadyPage from '../../common/NotReadyPage';

/** Placeholder: the system-settings helper replaces this page. */
export default function GroupInfoPage() {
  return <NotReadyPage />;
}
