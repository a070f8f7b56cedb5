import { useTranslation } from 'react-i18next';
import { LANG_LABELS, LANGS, type Lang } from '../../i18n';
import { useLanguage } from '../../app/useLanguage';
import { GlobeIcon } from '../../components/GlobeIcon';

/**
 * The login page's language switch: a native select (no antd on the login route, D83) with the same
 * labels as the header's LanguageSwitch, each in its own language; the choice is remembered (`lang`).
 */
export function LoginLanguage() {
  const [lang, setLang] = useLanguage();
  const { t } = useTranslation();
  return (
    <span className="tw-login-lang-select">
      <GlobeIcon />
      <select aria-label={t('lang.switch')} data-testid="login-lang" value={lang} onChange={(e) => setLang(e.target.value as Lang)}>
        {LANGS.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANG_LABELS[l]}
          </option>
        ))}
      </select>
    </span>
  );
}
