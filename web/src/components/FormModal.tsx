import { App, Form, Modal, type FormInstance } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface FormModalProps<V> {
  form: FormInstance<V>;
  /** The form's name (field ids are `<name>_<field>`). */
  name: string;
  title: ReactNode;
  /** Add (添加成功) or edit (修改成功) — the success message. */
  isAdd: boolean;
  /** Saves the validated values. A failure was already shown by the API client; the dialog stays open. */
  save: (values: V) => Promise<unknown>;
  onClose: () => void;
  onSaved: () => void;
  children: ReactNode;
  open?: boolean;
  width?: number;
  /** Width of the left-aligned labels, px. */
  labelWidth?: number;
  /** Called when validation fails on save (after the fields are marked), e.g. for a page-level notice. */
  onInvalid?: () => void;
}

/**
 * The add/edit dialog of the list pages: a horizontal form with left-aligned labels, save and cancel,
 * validation first, a spinner on save, the spec's success texts, and no closing on a stray click.
 */
export function FormModal<V>({ form, name, title, isAdd, save, onClose, onSaved, children, open = true, width = 760, labelWidth = 96, onInvalid }: FormModalProps<V>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      onInvalid?.();
      return;
    }
    setSaving(true);
    try {
      await save(values);
      void message.success(t(isAdd ? 'common.addSuccess' : 'common.modifySuccess'));
      onSaved();
    } catch {
      // the server message was shown by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      width={width}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      destroyOnHidden
      maskClosable={false}
    >
      <Form<V>
        form={form}
        name={name}
        layout="horizontal"
        labelCol={{ flex: `${labelWidth}px` }}
        labelAlign="left"
        wrapperCol={{ flex: 1 }}
        colon={false}
        className="tw-modal-form"
        preserve={false}
      >
        {children}
      </Form>
    </Modal>
  );
}
