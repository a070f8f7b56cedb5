import { Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { signIn } from '../../app/session';
import { useAppStore } from '../../app/store';
import { BRAND, themeOf } from '../../app/theme';
import { BrandLogo } from '../../components/BrandLogo';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { TankerIllustration } from './TankerIllustration';
import './login.css';

interface LoginForm {
  account: string;
  password: string;
}

function safeRedirect(r: string | null): string {
  return r && r.startsWith('/') && !r.startsWith('//') && !r.startsWith('/login') ? r : '/home';
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loggedIn = useAppStore((s) => s.loggedIn);
  const platform = useAppStore((s) => s.platform);
  const [busy, setBusy] = useState(false);
  const theme = themeOf(platform?.theme);
  const title = platform?.loginTitle || t(`theme.${theme}.loginTitle`);
  const logo = platform?.indexLogo || `/themes/${theme}/logo.svg`;
  const brand = BRAND[theme];

  if (loggedIn) return <Navigate to={safeRedirect(params.get('redirect'))} replace />;

  const onFinish = async (v: LoginForm) => {
    setBusy(true);
    try {
      const r = await signIn(v.account, v.password);
      if (r.ok) navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch {
      // HTTP errors are reported by the client
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="tw-login" style={{ ['--tw-brand' as string]: brand.primary, ['--tw-header' as string]: brand.header }}>
      <section className="tw-login-hero">
        <div className="tw-login-brand">
          <BrandLogo src={logo} size={40} alt={title} />
          <span>{title}</span>
        </div>
        <div className="tw-login-hero-body">
          <h1>{t('auth.tagline')}</h1>
          <ul>
            <li>{t('auth.feature1')}</li>
            <li>{t('auth.feature2')}</li>
            <li>{t('auth.feature3')}</li>
          </ul>
          <TankerIllustration />
        </div>
        <div className="tw-login-foot">© {new Date().getFullYear()} {t('auth.copyright')}</div>
      </section>
      <section className="tw-login-side">
        <div className="tw-login-lang">
          <LanguageSwitch />
        </div>
        <Card className="tw-login-card" variant="borderless">
          <div className="tw-login-card-head">
            <BrandLogo src={logo} size={48} alt={title} />
            <Typography.Title level={3} style={{ margin: '12px 0 4px' }}>
              {title}
            </Typography.Title>
            <Typography.Text type="secondary">{t('auth.signInHint')}</Typography.Text>
          </div>
          <Form<LoginForm> layout="vertical" size="large" requiredMark={false} onFinish={onFinish} autoComplete="on">
            <Form.Item
              name="account"
              label={t('auth.account')}
              rules={[{ required: true, whitespace: true, message: t('auth.accountRequired') }]}
              normalize={(v: string) => v?.trimStart()}
            >
              <Input autoFocus autoComplete="username" placeholder={t('auth.account')} />
            </Form.Item>
            <Form.Item name="password" label={t('auth.password')} rules={[{ required: true, message: t('auth.passwordRequired') }]}>
              <Input.Password autoComplete="current-password" placeholder={t('auth.password')} />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy} style={{ marginTop: 8 }}>
              {t('auth.login')}
            </Button>
          </Form>
        </Card>
      </section>
    </div>
  );
}
