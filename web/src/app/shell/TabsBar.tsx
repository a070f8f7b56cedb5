import { CloseOutlined, DownOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useAppStore } from '../store';
import { HOME_TAB, useCloseTabs } from './useCloseTabs';

/** Spec §9: the tab strip scrolls 240 px per step. */
export const TAB_SCROLL_STEP = 240;

export function TabsBar() {
  const tabs = useAppStore((s) => s.tabs);
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const close = useCloseTabs();
  const strip = useRef<HTMLDivElement>(null);
  const active = location.pathname;

  const scroll = (dir: 1 | -1) => strip.current?.scrollBy({ left: dir * TAB_SCROLL_STEP, behavior: 'smooth' });
  const others = (key: string) => tabs.filter((x) => x.key !== key).map((x) => x.key);
  const all = () => tabs.map((x) => x.key);

  const contextItems = (key: string): MenuProps['items'] => [
    { key: 'close', label: t('shell.close'), disabled: key === HOME_TAB },
    { key: 'others', label: t('shell.closeOthers') },
    { key: 'all', label: t('shell.closeAll') },
  ];
  const onContext = (key: string) => (info: { key: string }) => {
    if (info.key === 'close') close([key]);
    else if (info.key === 'others') close(others(key));
    else close(all());
  };

  return (
    <div className="tw-tabs">
      <Button type="text" size="small" icon={<LeftOutlined />} aria-label={t('shell.scrollLeft')} onClick={() => scroll(-1)} />
      <div className="tw-tabs-strip" ref={strip} role="tablist">
        {tabs.map((tab) => (
          <Dropdown key={tab.key} trigger={['contextMenu']} menu={{ items: contextItems(tab.key), onClick: onContext(tab.key) }}>
            <div
              role="tab"
              aria-selected={tab.key === active}
              className={`tw-tab${tab.key === active ? ' active' : ''}`}
              data-key={tab.key}
              onClick={() => tab.key !== active && navigate(tab.to)}
            >
              <span>{t(`menu.${tab.name}`)}</span>
              {tab.key !== HOME_TAB && (
                <span
                  className="tw-tab-close"
                  role="button"
                  aria-label={t('shell.close')}
                  onClick={(e) => {
                    e.stopPropagation();
                    close([tab.key]);
                  }}
                >
                  <CloseOutlined />
                </span>
              )}
            </div>
          </Dropdown>
        ))}
      </div>
      <Button type="text" size="small" icon={<RightOutlined />} aria-label={t('shell.scrollRight')} onClick={() => scroll(1)} />
      <Dropdown
        menu={{
          items: [
            { key: 'others', label: t('shell.closeOthers') },
            { key: 'all', label: t('shell.closeAll') },
          ],
          onClick: ({ key }) => close(key === 'others' ? others(active) : all()),
        }}
      >
        <Button type="text" size="small" aria-label={t('shell.tabActions')}>
          <DownOutlined />
        </Button>
      </Dropdown>
    </div>
  );
}
