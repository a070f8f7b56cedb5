import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANG_LABELS, LANGS, type Lang } from '../i18n';
import { useLanguage } from '../app/useLanguage';
import { GlobeIcon } from './GlobeIcon';

const SHORT: Record<Lang, string> = { 'zh-CN': '简', 'zh-TW': '繁', 'en-US': 'EN' };

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
