import { App, Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GroupSelect } from '../../../components/GroupSelect';
import { moveCars } from '../../../api/fleet';

/** Move the selected vehicles to another group (carInfo/move). */
export function MoveModal({ ids, onClose, onDone }: { ids: number[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ groupId?: number }>();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const { groupId } = await form.validateFields();
    setSaving(true);
    try {
      await moveCars(ids, groupId!);
      void message.success(t('common.operationSuccess'));
      onDone();
    } catch {
      // shown by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open title={t('car.moveTitle')} onCancel={onClose} onOk={() => void submit().catch(() => undefined)} okText={t('common.ok')} cancelText={t('common.cancel')} confirmLoading={saving} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="groupId" label={t('car.moveN', { count: ids.length })} rules={[{ required: true, message: t('car.groupRequired') }]}>
          <GroupSelect />
        </Form.Item>
      </Form>
    </Modal>
  );
}
