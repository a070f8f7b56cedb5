import { Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SessionsTab } from './SessionsTab';
import { SettingsForm } from './SettingsForm';

/** 系统配置 (access/system, 06-11): platform settings applied at once, and the sessions signed in now. */
export default function SystemPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState('settings');
  return (
    <div className="tw-page" data-testid="system-page">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyInactiveTabPane
        items={[
          { key: 'settings', label: t('settings.system.tab'), children: <SettingsForm /> },
          { key: 'sessions', label: <span data-testid="tab-sessions">{t('settings.sessions.tab')}</span>, children: <SessionsTab /> },
        ]}
      />
    </div>
  );
}
