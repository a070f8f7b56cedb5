import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Select, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { editImgAndTittle } from '../../../api/group';
import type { Group, ThemeName } from '../../../api/types';
import { refreshSession } from '../../../app/session';
import { useAppStore } from '../../../app/store';
import { AuthButton } from '../../../components/AuthButton';
import { BrandLogo } from '../../../components/BrandLogo';

export const THEMES: ThemeName[] = ['tankcar', 'groundtank', 'escort', 'telecom'];
export const MAX_LOGO_BYTES = 256 * 1024;
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'];

export type Branding = Pick<Group, 'id' | 'title' | 'logo' | 'theme'>;

export function readAsDataURL(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error('read failed'));
    r.readAsDataURL(file);
  });
}

/** The request body: the logo only when it changed (a data URL, or '' to clear). */
export function brandingBody(id: number, title: string | undefined, theme: ThemeName | '' | undefined, logo: string | undefined) {
  return { id, title: (title ?? '').trim(), theme: theme ?? '', ...(logo !== undefined ? { logo } : {}) };
}

/**
 * Title, theme and logo of a group → POST editImgAndTittle. Shared by groupInfo (button groupInfo-logo)
 * and updateLogo (updateLogo-edit). Refreshes the session (header) when the group is on the signed-in
 * user's path (`onPath`).
 */
export function BrandingForm({ group, code, onPath, onSaved, onCancel }: { group: Branding; code: string; onPath: boolean; onSaved?: (g: Group) => void; onCancel?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ title: string; theme: ThemeName | '' }>();
  /** undefined = unchanged, '' = cleared, data URL = new */
  const [logo, setLogo] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const fallbackTheme = useAppStore((s) => s.session?.theme ?? s.platform?.theme ?? 'tankcar');
  const theme = Form.useWatch('theme', form) || group.theme || fallbackTheme;
  const preview = logo !== undefined ? logo : group.logo;

  const pick = async (file: File) => {
    if (!LOGO_TYPES.includes(file.type)) {
      void message.error(t('groupInfo.logoType'));
      return Upload.LIST_IGNORE;
    }
    if (file.size > MAX_LOGO_BYTES) {
      void message.error(t('groupInfo.logoTooLarge', { size: Math.ceil(file.size / 1024) }));
      return Upload.LIST_IGNORE;
    }
    setLogo(await readAsDataURL(file));
    return false;
  };

  const save = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const g = await editImgAndTittle(brandingBody(group.id, v.title, v.theme, logo));
      void message.success(t('common.modifySuccess'));
      if (onPath) await refreshSession();
      setLogo(undefined);
      onSaved?.(g);
    } catch {
      // server message shown by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} name={`branding-${group.id}`} layout="horizontal" labelCol={{ flex: '110px' }} labelAlign="left" colon={false} initialValues={{ title: group.title, theme: group.theme ?? '' }}>
      <Form.Item name="title" label={t('groupInfo.brandTitle')} extra={t('groupInfo.brandTitleHint')} rules={[{ max: 64, message: t('groupInfo.brandTitleLength') }]}>
        <Input maxLength={64} allowClear placeholder={t(`theme.${theme}.title`)} />
      </Form.Item>
      <Form.Item name="theme" label={t('groupInfo.theme')}>
        <Select
          style={{ maxWidth: 320 }}
          options={[{ value: '', label: t('groupInfo.themeInherit') }, ...THEMES.map((th) => ({ value: th, label: t(`groupInfo.themes.${th}`) }))]}
        />
      </Form.Item>
      <Form.Item label={t('groupInfo.logo')} extra={t('groupInfo.logoHint')}>
        <Space align="start" size={16}>
          <div className="tw-logo-preview" data-testid="logo-preview" style={{ width: 96, height: 96, border: '1px dashed var(--ant-color-border, #d9d9d9)', borderRadius: 8, display: 'grid', placeItems: 'center', background: '#fafafa' }}>
            <BrandLogo src={preview || `/themes/${theme}/logo.svg`} size={72} alt={t('groupInfo.logo')} />
          </div>
          <Space direction="vertical">
            <Upload accept=".png,.jpg,.jpeg,.svg,image/png,image/jpeg,image/svg+xml" showUploadList={false} maxCount={1} beforeUpload={pick}>
              <Button icon={<UploadOutlined />}>{t('groupInfo.logoUpload')}</Button>
            </Upload>
            <Button icon={<DeleteOutlined />} disabled={!preview} onClick={() => setLogo('')}>
              {t('groupInfo.logoClear')}
            </Button>
            {logo !== undefined && <Typography.Text type="warning">{t(logo ? 'groupInfo.logoPending' : 'groupInfo.logoCleared')}</Typography.Text>}
          </Space>
        </Space>
      </Form.Item>
      <Form.Item label=" ">
        <Space>
          <AuthButton code={code}>
            <Button type="primary" loading={saving} onClick={() => void save().catch(() => undefined)}>
              {t('common.save')}
            </Button>
          </AuthButton>
          {onCancel && <Button onClick={onCancel}>{t('common.cancel')}</Button>}
        </Space>
      </Form.Item>
    </Form>
  );
}
