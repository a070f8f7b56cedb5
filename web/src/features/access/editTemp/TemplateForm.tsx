import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Select, Space, Tag, Typography, type FormInstance } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { templateAdd, templateEdit, templatePreview, type NoticeTemplate, type TemplateKind } from '../../../api/notices';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import { checkTemplate, type TemplateProblem } from './template';

interface Values {
  groupId?: number;
  kind: string;
  lang: string;
  body: string;
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = window.setTimeout(() => setV(value), ms);
    return () => window.clearTimeout(id);
  }, [value, ms]);
  return v;
}

/** The checker's problem in the reader's language. */
export function problemText(t: (k: string, o?: Record<string, unknown>) => string, p: TemplateProblem, kind?: TemplateKind): string {
  switch (p.key) {
    case 'unknownPlaceholder':
      return t('notices.problem.unknownPlaceholder', { name: `{${p.name}}`, allowed: (kind?.placeholders ?? []).map((x) => `{${x}}`).join(' ') });
    case 'unbalanced':
    case 'emptyPlaceholder':
      return t(`notices.problem.${p.key}`, { at: p.at });
    case 'routeCore':
      return t('notices.problem.routeCore', { core: kind?.routeCore ?? '' });
    default:
      return t(`notices.problem.${p.key}`);
  }
}

/** Inserts `{name}` at the text area's caret. */
function insertAt(form: FormInstance<Values>, area: TextAreaRef | null, name: string) {
  const el = area?.resizableTextArea?.textArea;
  const body: string = form.getFieldValue('body') ?? '';
  const at = el ? el.selectionStart : body.length;
  const end = el ? el.selectionEnd : body.length;
  form.setFieldValue('body', body.slice(0, at) + `{${name}}` + body.slice(end));
  void form.validateFields(['body']).catch(() => undefined);
}

/** Add a group's own template, or edit one: the placeholders to insert, the check while typing and the live preview. */
export function TemplateForm({ template, kinds, onClose, onSaved }: { template?: NoticeTemplate; kinds: TemplateKind[]; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Values>();
  const area = useRef<TextAreaRef>(null);
  const kindName = Form.useWatch('kind', form) ?? template?.kind;
  const lang = Form.useWatch('lang', form) ?? template?.lang;
  const body = Form.useWatch('body', form) ?? template?.body ?? '';
  const kind = kinds.find((k) => k.name === kindName);
  useEffect(() => {
    form.setFieldsValue(template ? { groupId: template.groupId, kind: template.kind, lang: template.lang, body: template.body } : { kind: 'dispatch', lang: 'zh-CN', body: kinds[0]?.routeCore ?? '' });
  }, [form, template, kinds]);
  const debounced = useDebounced(body, 250);
  const preview = useQuery({
    queryKey: ['templatePreview', kindName, lang, debounced, i18n.language],
    queryFn: () => templatePreview({ groupId: 0, kind: kindName ?? '', lang: lang ?? '', body: debounced }),
    enabled: !!kindName && !!debounced.trim(),
    placeholderData: (prev) => prev,
  });
  // The API names a template by its key (group, kind, language). When editing, the dialog shows the key
  // as text and has no kind or language field, so validateFields returns only the body: the key comes
  // from the template being edited, never from the form.
  const save = (v: Values) =>
    template
      ? templateEdit({ groupId: template.groupId, kind: template.kind, lang: template.lang, body: v.body })
      : templateAdd({ groupId: v.groupId ?? 0, kind: v.kind, lang: v.lang, body: v.body });
  return (
    <FormModal<Values> form={form} name="templateForm" title={template ? t('notices.edit') : t('notices.add')} isAdd={!template} width={820} save={save} onClose={onClose} onSaved={onSaved}>
      {template ? (
        <Form.Item label={t('notices.scope')}>
          <Typography.Text strong>{template.groupId ? template.groupName : t('notices.platformWide')}</Typography.Text>
          <Typography.Text type="secondary">{`  ${template.kindName} · ${t(`notices.langName.${template.lang}`)}`}</Typography.Text>
        </Form.Item>
      ) : (
        <>
          <Form.Item name="groupId" label={t('notices.group')} rules={[{ required: true, message: t('notices.groupRequired') }]} extra={t('notices.groupHint')}>
            <GroupSelect />
          </Form.Item>
          <Form.Item name="kind" label={t('notices.kind')} rules={[{ required: true }]}>
            <Select
              options={kinds.map((k) => ({ value: k.name, label: k.title }))}
              onChange={(k: string) => {
                const next = kinds.find((x) => x.name === k);
                if (next && !next.langs.includes(form.getFieldValue('lang'))) form.setFieldValue('lang', next.langs[0]);
              }}
            />
          </Form.Item>
          <Form.Item name="lang" label={t('notices.lang')} rules={[{ required: true }]}>
            <Select options={(kind?.langs ?? ['zh-CN']).map((l) => ({ value: l, label: t(`notices.langName.${l}`) }))} />
          </Form.Item>
        </>
      )}
      <Form.Item label={t('notices.placeholders')} extra={kind?.name === 'dispatch' ? t('notices.routeHint', { core: kind.routeCore }) : undefined}>
        <Space size={[4, 4]} wrap>
          {(kind?.placeholders ?? []).map((p) => (
            <Tag key={p} color="blue" style={{ cursor: 'pointer' }} onClick={() => insertAt(form, area.current, p)} data-testid={`placeholder-${p}`}>
              {`{${p}}`} <span className="tw-muted">{t(`notices.placeholder.${p}`)}</span>
            </Tag>
          ))}
        </Space>
      </Form.Item>
      <Form.Item
        name="body"
        label={t('notices.body')}
        rules={[
          {
            validator: (_, v: string) => {
              const p = checkTemplate(kindName ?? '', v ?? '', kind?.placeholders ?? []);
              return p ? Promise.reject(new Error(problemText(t, p, kind))) : Promise.resolve();
            },
          },
        ]}
      >
        <Input.TextArea ref={area} rows={4} maxLength={400} showCount />
      </Form.Item>
      <Form.Item label={t('notices.preview')}>
        <div data-testid="template-preview">
          {preview.data && debounced.trim() ? (
            <>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', background: '#f6f8fa', padding: '8px 12px', borderRadius: 6, marginBottom: 4 }}>{preview.data.text}</Typography.Paragraph>
              <Typography.Text type="secondary">{t('notices.previewLength', { n: preview.data.length, limit: kind?.limit ?? 200 })}</Typography.Text>
              {preview.data.error && <Alert type="error" showIcon message={preview.data.error} style={{ marginTop: 6 }} />}
            </>
          ) : (
            <Typography.Text type="secondary">{preview.isFetching ? t('common.loading') : t('notices.previewEmpty')}</Typography.Text>
          )}
        </div>
      </Form.Item>
    </FormModal>
  );
}
