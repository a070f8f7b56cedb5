import type { ComponentType } from 'react';
import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import NoPermissionPage from '../features/common/NoPermissionPage';
import { ensureAllTexts } from '../i18n';
import { allPages, isPagePermitted, type PageDef } from './pages';
import { RequireAuth, RootLayout } from './RootLayout';
import { usePermittedMenu } from './shell/useMenu';

/** The page, or the no-permission page when the user's role does not include it (the page never mounts). */
function guarded(p: PageDef, Page: ComponentType): ComponentType {
  function GuardedPage() {
    const { modules } = usePermittedMenu();
    return isPagePermitted(p, modules) ? <Page /> : <NoPermissionPage name={p.name} allScreen={p.allScreen} />;
  }
  GuardedPage.displayName = `Guarded(${p.name})`;
  return GuardedPage;
}

function pageRoute(p: PageDef): RouteObject {
  return {
    path: p.path,
    handle: { name: p.name, allScreen: !!p.allScreen, beforeCloseConfirm: !!p.beforeCloseConfirm },
    lazy: async () => ({ Component: guarded(p, (await Promise.all([p.load(), ensureAllTexts()]))[0].default) }),
  };
}

export function buildRoutes(): RouteObject[] {
  const pages = allPages();
  return [
    {
      element: <RootLayout />,
      HydrateFallback: () => null,
      children: [
        { path: '/login', lazy: async () => ({ Component: (await import('../features/login/LoginPage')).default }) },
        { path: '/', element: <Navigate to="/home" replace /> },
        {
          element: <RequireAuth />,
          children: [
            {
              lazy: async () => ({ Component: (await Promise.all([import('./shell/Shell'), ensureAllTexts()]))[0].default }),
              children: [
                ...pages.filter((p) => !p.allScreen).map(pageRoute),
                { path: '*', handle: { name: 'notFound' }, lazy: async () => ({ Component: (await Promise.all([import('../features/common/NotFoundPage'), ensureAllTexts()]))[0].default }) },
              ],
            },
            ...pages.filter((p) => p.allScreen).map(pageRoute),
          ],
        },
      ],
    },
  ];
}

export const router = createHashRouter(buildRoutes());
