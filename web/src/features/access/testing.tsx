import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Session } from '../../api/types';
import { useAppStore } from '../../app/store';

export const testSession = {
  userName: 'admin',
  userId: 1,
  groupId: 1,
  groupCode: 'G0001',
  groupName: 'Top',
  topGroupId: 1,
  userNickName: 'Admin',
  userEmail: '',
  userPhone: '',
  userStatus: 1,
  indexTitle: '',
  indexLogo: '',
  theme: 'tankcar',
  platform: false,
  currentUserInfo: { userId: 1, userName: 'admin', userNickName: 'Admin', groupId: 1, groupCode: 'G0001', groupName: 'Top', topGroupId: 1, roleIds: [], theme: 'tankcar' },
} satisfies Session;

/** Renders a page as the router would: route handle `{name: page}`, the given buttons authorised, a fresh query cache. */
export function renderPage(ui: ReactElement, page: string, buttons: string[], session: Session = testSession) {
  useAppStore.setState({ setMenu: buttons.map((b) => `${page}-${b}`), session });
  const router = createMemoryRouter([{ path: '/', element: ui, handle: { name: page } }]);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ConfigProvider locale={zhCN}>
        <AntApp>
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>,
  );
}
