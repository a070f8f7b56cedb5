import { ArrowLeftOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Empty, Segmented, Skeleton } from 'antd';
import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { LAYOUTS, type Layout } from './logic';

/**
 * The header of a full-screen video wall (videoLive, videoMonitor): back to the console, title, how many
 * tiles play, the page's own tools, layouts 1/4/9/16, close all, language. Test ids start with `prefix`.
 */
export function WallHeader({ prefix, title, shown, layout, onLayout, onCloseAll, tools }: { prefix: string; title: string; shown: number; layout: Layout; onLayout: (l: Layout) => void; onCloseAll: () => void; tools?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <header className="tw-monitor-header">
      <Link to="/home" className="tw-monitor-back" data-testid="monitor-back">
        <Button type="text" size="small" icon={<ArrowLeftOutlined />} className="tw-header-btn">
          {t('monitor.backToConsole')}
        </Button>
      </Link>
      <h1 className="tw-monitor-title">{title}</h1>
      <span className="tw-vl-count" data-testid={`${prefix}-count`}>
        {t('videoLive.playingCount', { n: shown })}
      </span>
      <span className="tw-monitor-tools">
        {tools}
        <Segmented<Layout>
          size="small"
          value={layout}
          onChange={onLayout}
          options={LAYOUTS.map((l) => ({ value: l, label: <span data-testid={`${prefix}-layout-${l}`}>{t('videoLive.layout', { n: l })}</span> }))}
        />
        <Button size="small" ghost className="tw-vl-closeall" icon={<StopOutlined />} disabled={shown === 0} onClick={onCloseAll} data-testid={`${prefix}-close-all`}>
          {t('videoLive.closeAll')}
        </Button>
        <LanguageSwitch dark />
      </span>
    </header>
  );
}

/** The vehicle tree's box of a video wall: a skeleton while loading, "no vehicles / no match", else the tree. */
export function TreeBox({ boxRef, pending, empty, searching, children }: { boxRef: Ref<HTMLDivElement>; pending: boolean; empty: boolean; searching: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="tw-tree-box" ref={boxRef}>
      {pending ? (
        <Skeleton active paragraph={{ rows: 6 }} style={{ padding: 12 }} />
      ) : empty ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={searching ? t('monitor.noMatch') : t('monitor.noVehicles')} />
      ) : (
        children
      )}
    </div>
  );
}
