import '@ant-design/v5-patch-for-react-19';
import '../i18n/dayjsLocale';
import { Outlet } from 'react-router';
import { BlockingSpinner } from './BlockingSpinner';
import { Providers } from './Providers';

/**
 * Everything behind sign-in: antd's providers (theme, locale, message/modal/notification), react-query,
 * dayjs's locales and the blocking spinner. A lazy route (router.tsx), so the login route loads none of
 * it (D83); the shell and the full-screen pages render inside it.
 */
export default function ConsoleRoot() {
  return (
    <Providers>
      <Outlet />
      <BlockingSpinner />
    </Providers>
  );
}
