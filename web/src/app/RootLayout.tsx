import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigation } from 'react-router';
import { platformInfo } from '../api/auth';
import { setPlatformZone } from '../lib/zone';
import { useAppStore } from './store';
import { themeOf } from './theme';

NProgress.configure({ showSpinner: false });

/**
 * Title, loading bar, scroll-to-top and platform info for every route, the login route included: light on
 * purpose (no antd; the signed-in console's providers and spinner are ConsoleRoot's, D83).
 */
export function RootLayout() {
  const navigation = useNavigation();
  const location = useLocation();
  const { t } = useTranslation();
  const platform = useAppStore((s) => s.platform);
  const setPlatform = useAppStore((s) => s.setPlatform);
  const lang = useAppStore((s) => s.lang);

  useEffect(() => {
    platformInfo()
      .then((info) => {
        setPlatformZone(info.timeZone);
        setPlatform(info);
      })
      .catch(() => setPlatform(null));
  }, [setPlatform]);

  useEffect(() => {
    if (navigation.state !== 'idle') NProgress.start();
    else NProgress.done();
  }, [navigation.state]);

  useEffect(() => {
    NProgress.done();
    window.scrollTo(0, 0);
  }, [location.pathname]);

  useEffect(() => {
    const theme = themeOf(platform?.theme);
    document.title = platform?.loginTitle || t(`theme.${theme}.loginTitle`);
  }, [platform, t, lang]);

  return <Outlet />;
}

/** Guard: not logged in → /login?redirect=<target>. */
export function RequireAuth() {
  const loggedIn = useAppStore((s) => s.loggedIn);
  const location = useLocation();
  if (!loggedIn) {
    const target = location.pathname + location.search;
    const q = target && target !== '/' && target !== '/home' ? `?redirect=${encodeURIComponent(target)}` : '';
    return <Navigate to={`/login${q}`} replace />;
  }
  return <Outlet />;
}
