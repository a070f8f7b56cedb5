import { BugOutlined, FullscreenExitOutlined, FullscreenOutlined, KeyOutlined, LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Badge, Button, Divider, Popover, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { signOut } from '../session';
import { useAppStore } from '../store';
import { LiveInbox } from './LiveInbox';
import { PrefsDialog } from './PrefsDialog';

function useFullscreen(): [boolean, () => void] {
  const [on, setOn] = useState(() => !!document.fullscreenElement);
  useEffect(() => {
    const h = () => setOn(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', h);
    return () => document.removeEventListener('fullscreenchange', h);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  return [on, toggle];
}

export function HeaderTools() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const errors = useAppStore((s) => s.errorLog.length);
  const session = useAppStore((s) => s.session);
  const [fs, toggleFs] = useFullscreen();
  const [open, setOpen] = useState(false);
  const [prefsOpen, setPrefsOpen] = useState(false);
  const nick = session?.userNickName || session?.userName || '';

  const userPanel = (
    <div style={{ width: 220 }}>
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', padding: '4px 4px 0' }}>
        <Avatar size={40} icon={<UserOutlined />} style={{ background: '#1668dc' }} />
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong ellipsis style={{ display: 'block' }}>{nick}</Typography.Text>
          <Typography.Text type="secondary" ellipsis style={{ display: 'block', fontSize: 12 }}>
            {session?.groupName || session?.userName}
          </Typography.Text>
        </div>
      </div>
      <Divider style={{ margin: '12px 0 6px' }} />
      <Button
        type="text"
        block
        icon={<SettingOutlined />}
        style={{ justifyContent: 'flex-start' }}
        data-testid="open-prefs"
        onClick={() => {
          setOpen(false);
          setPrefsOpen(true);
        }}
      >
        {t('shell.prefs')}
      </Button>
      <Button
        type="text"
        block
        icon={<KeyOutlined />}
        style={{ justifyContent: 'flex-start' }}
        onClick={() => {
          setOpen(false);
          navigate('/rePassword');
        }}
      >
        {t('shell.changePassword')}
      </Button>
      <Button type="text" block danger icon={<LogoutOutlined />} style={{ justifyContent: 'flex-start' }} onClick={() => void signOut()}>
        {t('shell.logout')}
      </Button>
    </div>
  );

  return (
    <div className="tw-tools">
      <LiveInbox />
      <Tooltip title={t('shell.errorLog')}>
        <Button type="text" className="tw-header-btn" aria-label={t('shell.errorLog')} onClick={() => navigate('/errorLog')}>
          <Badge count={errors} size="small" overflowCount={99}>
            <BugOutlined style={{ color: 'rgba(255,255,255,0.82)', fontSize: 16 }} />
          </Badge>
        </Button>
      </Tooltip>
      <Tooltip title={fs ? t('shell.exitFullscreen') : t('shell.fullscreen')}>
        <Button
          type="text"
          className="tw-header-btn"
          aria-label={fs ? t('shell.exitFullscreen') : t('shell.fullscreen')}
          icon={fs ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
          onClick={toggleFs}
        />
      </Tooltip>
      <LanguageSwitch dark />
      <Popover content={userPanel} trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen}>
        <div className="tw-user" role="button" aria-label={nick} data-testid="user-menu">
          <Avatar size={28} icon={<UserOutlined />} style={{ background: 'rgba(79,179,255,0.35)' }} />
          <span>{nick}</span>
        </div>
      </Popover>
      <PrefsDialog open={prefsOpen} onClose={() => setPrefsOpen(false)} />
    </div>
  );
}
