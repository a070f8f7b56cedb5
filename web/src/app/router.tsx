import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { ensureAllTexts } from '../i18n';
import { allPages, type PageDef } from './pages';
import { RequireAuth, RootLayout } from './RootLayout';

function pageRoute(p: PageDef): RouteObject {
  return {
    path: p.path,
    handle: { name: p.name, allScreen: !!p.allScreen, beforeCloseConfirm: !!p.beforeCloseConfirm },
    lazy: async () => {
      const [page, { guarded }] = await Promise.all([p.load(), import('./pageGuard'), ensureAllTexts()]);
      return { Component: guarded(p, page.default) };
    },
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
              // antd's providers and the rest of the signed-in console: not on the login route (D83)
              lazy: async () => ({ Component: (await import('./ConsoleRoot')).default }),
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
      ],
    },
  ];
}

export const router = createHashRouter(buildRoutes());
