import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { signIn } from '../../app/session';
import { useAppStore } from '../../app/store';
import { BRAND, themeOf } from '../../app/theme';
import { BrandLogo } from '../../components/BrandLogo';
import { LoginLanguage } from './LoginLanguage';
import { TankerIllustration } from './TankerIllustration';
import './login.css';

function safeRedirect(r: string | null): string {
  return r && r.startsWith('/') && !r.startsWith('//') && !r.startsWith('/login') ? r : '/home';
}

/** A field's problem, as an i18n key so that it follows a language switch. */
type FieldErrors = { account?: string; password?: string };
/** The form's error line: the server's message (already in the request's language) or an i18n key. */
type FormError = { text: string } | { key: string } | null;

function check(account: string, password: string): FieldErrors {
  return {
    ...(account.trim() ? {} : { account: 'auth.accountRequired' }),
    ...(password ? {} : { password: 'auth.passwordRequired' }),
  };
}

function EyeIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden>
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {!open && <path d="M4 4l16 16" />}
    </svg>
  );
}

/**
 * The sign-in page. Plain HTML controls styled by login.css, with its own error line instead of antd's
 * message toast: the login route loads no antd (D83, web/scripts/login-budget.mjs).
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loggedIn = useAppStore((s) => s.loggedIn);
  const platform = useAppStore((s) => s.platform);
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [formError, setFormError] = useState<FormError>(null);
  const [busy, setBusy] = useState(false);
  const accountRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const theme = themeOf(platform?.theme);
  const title = platform?.loginTitle || t(`theme.${theme}.loginTitle`);
  const logo = platform?.indexLogo || `/themes/${theme}/logo.svg`;
  const brand = BRAND[theme];
  // fields are checked once the form was submitted, then as they change (as antd's form did)
  const errors = submitted ? check(account, password) : {};

  if (loggedIn) return <Navigate to={safeRedirect(params.get('redirect'))} replace />;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setSubmitted(true);
    setFormError(null);
    const bad = check(account, password);
    if (bad.account || bad.password) {
      (bad.account ? accountRef : passwordRef).current?.focus();
      return;
    }
    setBusy(true);
    try {
      const r = await signIn(account, password);
      if (r.ok) {
        navigate(safeRedirect(params.get('redirect')), { replace: true });
        return;
      }
      setFormError({ text: r.message });
    } catch {
      // no answer, or not one the server meant for this form (the client has logged it)
      setFormError({ key: 'common.requestFailed' });
    }
    setBusy(false);
  };

  const errorLine = formError && ('text' in formError ? formError.text : t(formError.key));

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
          <LoginLanguage />
        </div>
        <div className="tw-login-card">
          <div className="tw-login-card-head">
            <BrandLogo src={logo} size={48} alt={title} />
            <h2>{title}</h2>
            <p>{t('auth.signInHint')}</p>
          </div>
          <form onSubmit={onSubmit} noValidate autoComplete="on">
            <div className={errors.account ? 'tw-login-field tw-login-field-error' : 'tw-login-field'}>
              <label htmlFor="account">{t('auth.account')}</label>
              <input
                ref={accountRef}
                id="account"
                name="account"
                className="tw-login-input"
                autoFocus
                autoComplete="username"
                placeholder={t('auth.account')}
                value={account}
                onChange={(e) => {
                  setAccount(e.target.value.trimStart());
                  setFormError(null);
                }}
                aria-invalid={!!errors.account}
                aria-describedby={errors.account ? 'account-error' : undefined}
              />
              {errors.account && (
                <div id="account-error" className="tw-login-field-msg">
                  {t(errors.account)}
                </div>
              )}
            </div>
            <div className={errors.password ? 'tw-login-field tw-login-field-error' : 'tw-login-field'}>
              <label htmlFor="password">{t('auth.password')}</label>
              <span className="tw-login-input tw-login-password">
                <input
                  ref={passwordRef}
                  id="password"
                  name="password"
                  type={showPassword ? 'text' : 'password'}
                  autoComplete="current-password"
                  placeholder={t('auth.password')}
                  value={password}
                  onChange={(e) => {
                    setPassword(e.target.value);
                    setFormError(null);
                  }}
                  aria-invalid={!!errors.password}
                  aria-describedby={errors.password ? 'password-error' : undefined}
                />
                <button type="button" className="tw-login-eye" aria-label={t(showPassword ? 'auth.hidePassword' : 'auth.showPassword')} aria-pressed={showPassword} onClick={() => setShowPassword((v) => !v)}>
                  <EyeIcon open={showPassword} />
                </button>
              </span>
              {errors.password && (
                <div id="password-error" className="tw-login-field-msg">
                  {t(errors.password)}
                </div>
              )}
            </div>
            <div className="tw-login-error" role="alert">
              {errorLine && (
                <>
                  <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden>
                    <circle cx="12" cy="12" r="10" fill="currentColor" />
                    <path d="M12 7v6M12 16.5v.5" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
                  </svg>
                  <span>{errorLine}</span>
                </>
              )}
            </div>
            <button type="submit" className="tw-login-submit" aria-busy={busy}>
              {busy && <span className="tw-login-spin" aria-hidden />}
              <span className="tw-login-submit-text">{t('auth.login')}</span>
            </button>
          </form>
        </div>
      </section>
    </div>
  );
}
