import { App, Form, Modal, TreeSelect } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { moveCars } from '../../../api/fleet';
import { toGroupOptions, useGroupTree } from '../../access/groupInfo/groupTree';

/** Move the selected vehicles to another group (carInfo/move). */
export function MoveModal({ ids, onClose, onDone }: { ids: number[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const groups = useGroupTree();
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
          <TreeSelect treeData={toGroupOptions(groups.data)} loading={groups.isLoading} treeDefaultExpandAll showSearch treeNodeFilterProp="title" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
