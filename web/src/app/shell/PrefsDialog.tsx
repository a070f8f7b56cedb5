import { Form, Radio, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { editUserSetting, type UserSetting, type UserSettingResult } from '../../api/auth';
import type { Session, UserPrefs } from '../../api/types';
import { FormModal } from '../../components/FormModal';
import { applyLang, currentLang, LANG_LABELS, LANGS } from '../../i18n';
import { platformZoneName, zoneOptions } from '../../lib/zone';
import { PAGE_SIZES, pageSizeOf, prefsOf, sessionLang } from '../prefs';
import { queryClient } from '../Providers';
import { useAppStore } from '../store';

/** The dialog's fields: '' is "unset" for language and time zone (the browser's, the platform's). */
export interface PrefsValues {
  language: string;
  timezone: string;
  theme: 'light' | 'dark';
  mapLayer: 'normal' | 'satellite';
  pageSize: number;
}

/** The dialog's values for a session (defaults shown as what they mean: light, normal, 10 a page). */
export function prefsFormValues(session: Pick<Session, 'language' | 'timezone' | 'prefs'> | null): PrefsValues {
  const p = prefsOf(session);
  return {
    language: sessionLang(session) ?? '',
    timezone: session?.timezone ?? '',
    theme: p.theme === 'dark' ? 'dark' : 'light',
    mapLayer: p.mapLayer === 'satellite' ? 'satellite' : 'normal',
    pageSize: pageSizeOf(p),
  };
}

/** The userSetting/edit body for the dialog's values. */
export function prefsBody(v: PrefsValues): UserSetting {
  return {
    language: v.language,
    timezone: v.timezone,
    prefs: { theme: v.theme, mapLayer: v.mapLayer, pageSize: v.pageSize as UserPrefs['pageSize'] },
  };
}

/** Puts saved settings in force without a reload: the session (theme, lists, maps) and the language. */
export async function applySettings(saved: UserSettingResult): Promise<void> {
  const store = useAppStore.getState();
  const zoneBefore = store.session?.timezone ?? '';
  store.setSettings(saved);
  // what the lists hold was read on the old zone (D90): read it again on the new one
  if ((saved.timezone ?? '') !== zoneBefore) void queryClient.invalidateQueries();
  const lang = sessionLang(saved);
  if (lang && lang !== currentLang()) {
    await applyLang(lang);
    store.setLang(lang);
  }
}

/** 个人设置: the signed-in user's language, time zone, theme, map layer and page size (userSetting/edit). */
export function PrefsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PrefsValues>();
  const session = useAppStore((s) => s.session);
  const initial = useMemo(() => prefsFormValues(session), [session]);
  const zones = useMemo(() => zoneOptions().map((z) => ({ value: z, label: z })), []);
  if (!open) return null;
  return (
    <FormModal<PrefsValues>
      form={form}
      name="prefs"
      title={t('prefs.title')}
      isAdd={false}
      width={520}
      labelWidth={120}
      save={async (v) => applySettings(await editUserSetting(prefsBody(v)))}
      onClose={onClose}
      onSaved={onClose}
    >
      <Form.Item name="language" label={t('prefs.language')} initialValue={initial.language}>
        <Select
          options={[{ value: '', label: t('prefs.languageDefault') }, ...LANGS.map((l) => ({ value: l, label: LANG_LABELS[l] }))]}
        />
      </Form.Item>
      <Form.Item name="timezone" label={t('prefs.timezone')} initialValue={initial.timezone} extra={t('prefs.timezoneHint')}>
        <Select showSearch options={[{ value: '', label: t('prefs.timezoneDefault', { zone: platformZoneName() }) }, ...zones]} />
      </Form.Item>
      <Form.Item name="theme" label={t('prefs.theme')} initialValue={initial.theme}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'light', label: t('prefs.themeLight') },
            { value: 'dark', label: t('prefs.themeDark') },
          ]}
        />
      </Form.Item>
      <Form.Item name="mapLayer" label={t('prefs.mapLayer')} initialValue={initial.mapLayer} extra={t('prefs.mapLayerHint')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'normal', label: t('map.layer.normal') },
            { value: 'satellite', label: t('map.layer.satellite') },
          ]}
        />
      </Form.Item>
      <Form.Item name="pageSize" label={t('prefs.pageSize')} initialValue={initial.pageSize} extra={t('prefs.pageSizeHint')}>
        <Radio.Group optionType="button" options={PAGE_SIZES.map((n) => ({ value: n, label: String(n) }))} />
      </Form.Item>
    </FormModal>
  );
}
