import { Col, Form, Input, InputNumber, Row, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { codeAdd, codeEdit, type CodeInput, type CodeItem, type CodeType } from '../../../api/settings';

/** The server's code rule: 1–32 characters, no spaces (control characters are refused there too). */
export const CODE_RE = /^\S{1,32}$/;

export interface CodeFormValues {
  code: string;
  labelZh: string;
  labelTw?: string;
  labelEn?: string;
  sort?: number;
  enabled: boolean;
}

export function toCodeBody(type: CodeType, v: CodeFormValues, id?: number): CodeInput {
  return {
    id,
    type,
    code: v.code.trim(),
    labelZh: v.labelZh.trim(),
    labelTw: (v.labelTw ?? '').trim(),
    labelEn: (v.labelEn ?? '').trim(),
    sort: v.sort ?? 0,
    enabled: v.enabled,
  };
}

/** Add or edit an item of a code list. The code of an existing item is fixed: records store it. */
export function CodeForm({ type, item, onClose, onSaved }: { type: CodeType; item: CodeItem | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CodeFormValues>();
  // an enabled pinned item stays enabled (the server refuses); a disabled one may still be switched on
  const pinnedOn = !!item?.pinned && item.enabled;
  useEffect(() => {
    form.setFieldsValue(item ? { ...item } : { enabled: true, sort: 100 });
  }, [item, form]);
  return (
    <FormModal<CodeFormValues>
      form={form}
      name="codeForm"
      title={t(item ? 'settings.codes.editTitle' : 'settings.codes.addTitle', { list: t(`settings.codes.type.${type}`) })}
      isAdd={!item}
      save={(v) => (item ? codeEdit(toCodeBody(type, v, item.id)) : codeAdd(toCodeBody(type, v)))}
      onClose={onClose}
      onSaved={onSaved}
      labelWidth={140}
      width={720}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item
            name="code"
            label={t('settings.codes.code')}
            extra={item ? t('settings.codes.codeFixed') : undefined}
            rules={[
              { required: true, whitespace: true, message: t('settings.codes.codeRequired') },
              { pattern: CODE_RE, message: t('settings.codes.codeHint') },
            ]}
          >
            <Input maxLength={32} disabled={!!item} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="sort" label={t('settings.codes.sort')} rules={[{ type: 'number', min: 0, max: 99999, message: t('settings.codes.sortHint') }]}>
            <InputNumber min={0} max={99999} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="labelZh" label={t('settings.codes.labelZh')} rules={[{ required: true, whitespace: true, message: t('settings.codes.labelRequired') }]}>
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="labelTw" label={t('settings.codes.labelTw')}>
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="labelEn" label={t('settings.codes.labelEn')}>
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="enabled"
            label={t('settings.codes.enabled')}
            valuePropName="checked"
            extra={t(pinnedOn ? 'settings.codes.pinnedHint' : 'settings.codes.enabledHint')}
          >
            <Switch disabled={pinnedOn} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
