import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANG_LABELS, LANGS, type Lang } from '../i18n';
import { useLanguage } from '../app/useLanguage';

const SHORT: Record<Lang, string> = { 'zh-CN': '简', 'zh-TW': '繁', 'en-US': 'EN' };

function GlobeIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" />
    </svg>
  );
}

/** 简体中文 / 繁體中文 / English — the labels stay in their own language. */
export function LanguageSwitch({ dark = false }: { dark?: boolean }) {
  const [lang, setLang] = useLanguage();
  const { t } = useTranslation();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGS.map((l) => ({ key: l, label: LANG_LABELS[l] })),
        onClick: ({ key }) => setLang(key as Lang),
      }}
    >
      <Button type="text" className={dark ? 'tw-header-btn' : undefined} aria-label={t('lang.switch')} data-testid="lang-switch" icon={<GlobeIcon />}>
        {dark ? SHORT[lang] : LANG_LABELS[lang]}
      </Button>
    </Dropdown>
  );
}
