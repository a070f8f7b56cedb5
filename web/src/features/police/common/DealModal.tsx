import { App, Form, Input, Modal, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dealAlarms, type AlarmState } from '../../../api/alarm';

/** Sets the processing state (and a remark) of one or several alarms. */
export function DealModal({ ids, onClose, onDone }: { ids: number[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ state: AlarmState; remark: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const r = await dealAlarms(ids, v.state, v.remark ?? '');
      void message.success(t('alarm.dealt', { n: r.count }));
      onDone();
      onClose();
    } catch {
      // the client already showed the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={ids.length > 0}
      title={ids.length > 1 ? t('alarm.dealMany', { n: ids.length }) : t('alarm.deal')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ state: 1, remark: '' }} preserve={false}>
        <Form.Item name="state" label={t('alarm.stateLabel')} rules={[{ required: true }]}>
          <Radio.Group>
            <Radio value={1}>{t('alarm.state.1')}</Radio>
            <Radio value={2}>{t('alarm.state.2')}</Radio>
            <Radio value={0}>{t('alarm.state.0')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="remark" label={t('alarm.remark')} rules={[{ max: 255, message: t('alarm.remarkTooLong') }]}>
          <Input.TextArea rows={3} maxLength={255} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
