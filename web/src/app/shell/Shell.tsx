import '../darkTheme';
import { ExportOutlined, HomeOutlined, LeftOutlined, MenuFoldOutlined, MenuUnfoldOutlined, RightOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Layout, Menu, Result } from 'antd';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { currentSession } from '../../api/auth';
import { BrandLogo } from '../../components/BrandLogo';
import { buttonsForPath } from '../../lib/buttonPermission';
import { liveConnection } from '../live';
import { isPagePermitted, moduleOfPath, pageByPath, type ModuleDef } from '../pages';
import { usePageHandle } from '../routeMeta';
import { useAppStore } from '../store';
import { BRAND, themeOf } from '../theme';
import { HeaderTools } from './HeaderTools';
import { TabsBar } from './TabsBar';
import { HOME_TAB } from './useCloseTabs';
import { usePermittedMenu } from './useMenu';
import { useTileCounts } from './useTileCounts';
import './shell.css';
// The help-request view of the 求助消息 dialog (its map loads only when a request is shown).
import '../../features/police/helpRequestRecord/register';

/** Spec §9: side menu width 180. */
export const SIDER_WIDTH = 180;

export default function Shell() {
  const tileCounts = useTileCounts();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const handle = usePageHandle();
  const session = useAppStore((s) => s.session);
  const platform = useAppStore((s) => s.platform);
  const authMenu = useAppStore((s) => s.authMenu);
  const collapsed = useAppStore((s) => s.collapsed);
  const setCollapsed = useAppStore((s) => s.setCollapsed);
  const activeModule = useAppStore((s) => s.activeModule);
  const setActiveModule = useAppStore((s) => s.setActiveModule);
  const openTab = useAppStore((s) => s.openTab);
  const setSetMenu = useAppStore((s) => s.setSetMenu);
  const { modules, error } = usePermittedMenu();

  const theme = themeOf(session?.theme ?? platform?.theme);
  const brand = BRAND[theme];
  const title = session?.indexTitle || t(`theme.${theme}.title`);
  const logo = session?.indexLogo || platform?.indexLogo || `/themes/${theme}/logo.svg`;
  const path = location.pathname;

  useEffect(() => {
    if (session?.userId) liveConnection.online(session.userId);
  }, [session?.userId]);

  // Refresh title/logo/theme from the server once per shell mount (also detects an expired token).
  useEffect(() => {
    currentSession()
      .then((s) => useAppStore.getState().updateSession(s))
      .catch(() => undefined);
  }, []);

  // Tabs, module selection and button permissions follow the route.
  useEffect(() => {
    openTab({ key: HOME_TAB, to: HOME_TAB, name: 'home' });
    // a page refused by the guard gets no tab: closing it would be the only thing to do there
    const page = pageByPath(path);
    if (handle && handle.name !== 'notFound' && page && isPagePermitted(page, modules)) openTab({ key: path, to: path + location.search, name: handle.name });
    const m = moduleOfPath(path);
    if (m) setActiveModule(m.name);
    setSetMenu(buttonsForPath(authMenu, path));
  }, [path, location.search, handle, openTab, setActiveModule, setSetMenu, authMenu, modules]);

  // Header tiles scroll horizontally (with arrows) when the window is too narrow for all of them.
  const tilesRef = useRef<HTMLElement>(null);
  const [tilesOverflow, setTilesOverflow] = useState(false);
  useEffect(() => {
    const el = tilesRef.current;
    if (!el) return;
    const check = () => setTilesOverflow(el.scrollWidth > el.clientWidth + 1);
    check();
    const ro = new ResizeObserver(check);
    ro.observe(el);
    return () => ro.disconnect();
  }, [modules.length, t]);
  const scrollTiles = (dir: 1 | -1) => tilesRef.current?.scrollBy({ left: dir * 240, behavior: 'smooth' });

  // The content pane scrolls, not the window: back to the top after each navigation.
  const contentRef = useRef<HTMLElement>(null);
  useEffect(() => {
    contentRef.current?.scrollTo?.(0, 0);
  }, [path]);

  const current: ModuleDef | undefined = modules.find((m) => m.name === activeModule) ?? modules[0];

  const openModule = (m: ModuleDef) => {
    if (m.href) {
      const href = platform?.supplyChainUrl || authMenu?.find((a) => a.name === m.name)?.href;
      if (href) window.open(href, '_blank', 'noopener,noreferrer');
      return;
    }
    setActiveModule(m.name);
    if (m.page) navigate(m.page.path);
    else if (collapsed) setCollapsed(false);
  };

  const sideItems = useMemo(() => {
    if (!current) return [];
    const list = current.page ? [current.page] : current.children;
    return list.map((p) => ({ key: p.path, label: <span title={t(`menu.${p.name}`)}>{t(`menu.${p.name}`)}</span> }));
  }, [current, t]);

  const pageModule = moduleOfPath(path);
  const crumbs = [
    { title: <HomeOutlined />, onClick: () => navigate('/home'), className: 'tw-crumb-link' },
    ...(pageModule && !pageModule.page ? [{ title: t(`menu.${pageModule.name}`) }] : []),
    ...(handle ? [{ title: t(`menu.${handle.name}`) }] : []),
  ];

  const style = {
    ['--tw-brand' as string]: brand.primary,
    ['--tw-accent' as string]: brand.accent,
    ['--tw-brand-bg' as string]: `${brand.primary}14`,
    ['--tw-brand-border' as string]: `${brand.primary}66`,
  };

  return (
    <Layout className="tw-shell" style={style}>
      <Layout.Header className="tw-header">
        <div className="tw-brand" onClick={() => navigate('/home')}>
          <BrandLogo src={logo} size={30} alt={title} />
          <span title={title}>{title}</span>
        </div>
        <div className="tw-tiles-wrap">
        {tilesOverflow && (
          <Button type="text" size="small" className="tw-tiles-arrow" icon={<LeftOutlined />} aria-label={t('shell.scrollLeft')} onClick={() => scrollTiles(-1)} />
        )}
        <nav className="tw-tiles" aria-label={t('app.name')} ref={tilesRef}>
          {modules.map((m) => (
            <button
              key={m.name}
              type="button"
              className={`tw-tile${current?.name === m.name && !m.href ? ' active' : ''}`}
              onClick={() => openModule(m)}
              data-module={m.name}
            >
              <span>{t(`menu.${m.name}`)}</span>
              {m.href ? (
                <ExportOutlined style={{ fontSize: 12 }} />
              ) : (
                <span className="tw-tile-count" title={tileCounts(m).title}>
                  {tileCounts(m).n}
                </span>
              )}
            </button>
          ))}
        </nav>
        {tilesOverflow && (
          <Button type="text" size="small" className="tw-tiles-arrow" icon={<RightOutlined />} aria-label={t('shell.scrollRight')} onClick={() => scrollTiles(1)} />
        )}
        </div>
        <HeaderTools />
      </Layout.Header>
      <Layout>
        <Layout.Sider
          width={SIDER_WIDTH}
          collapsedWidth={0}
          collapsed={collapsed}
          trigger={null}
          theme="light"
          className="tw-sider"
        >
          <div className="tw-sider-title">{current ? t(`menu.${current.name}`) : ''}</div>
          <Menu
            className="tw-sider-menu"
            mode="inline"
            selectedKeys={[path]}
            items={sideItems}
            onClick={({ key }) => navigate(key)}
          />
        </Layout.Sider>
        <Layout className="tw-main">
          <div className="tw-bar">
            <Button
              type="text"
              aria-label={collapsed ? t('shell.expand') : t('shell.collapse')}
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed(!collapsed)}
            />
            <Breadcrumb items={crumbs} />
          </div>
          <TabsBar />
          {/* data-path: the page shown (the hash changes first; the previous page stays until the new one has rendered) */}
          <Layout.Content className="tw-content" ref={contentRef} data-path={path}>
            {error ? (
              <Result status="403" title={t('auth.noPermission')} />
            ) : (
              <Suspense fallback={null}>
                <Outlet />
              </Suspense>
            )}
          </Layout.Content>
        </Layout>
      </Layout>
    </Layout>
  );
}
