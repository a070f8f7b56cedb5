import { App, Checkbox, Form, Modal, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendLockCommand, type LockCommand } from '../../../api/lockEvents';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { compartmentsOf } from './model';

interface Values {
  carId?: number;
  action: 'unlock' | 'lock';
  all: boolean;
  compartments?: number[];
}

/**
 * Remote open / close (04-22-01): the lock command 0xE4 to a car's terminal for some compartments or
 * all. The call waits for the terminal's answer; what it did is in the commands list either way.
 */
export function CommandModal({ onClose, onSent }: { onClose: () => void; onSent: (c?: LockCommand) => void }) {
  const { t } = useTranslation();
  const app = App.useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const all = Form.useWatch('all', form);
  const submit = async (v: Values) => {
    setBusy(true);
    try {
      const c = await sendLockCommand({ carId: v.carId!, action: v.action, compartments: compartmentsOf(v) });
      void app.message.success(t(v.action === 'unlock' ? 'lockEvents.unlockDone' : 'lockEvents.lockDone'));
      onSent(c);
    } catch {
      onSent(); // refused or not carried out: the client showed why, and the command is in the list
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t('lockEvents.commandTitle')} okText={t('lockEvents.send')} confirmLoading={busy} onCancel={onClose} onOk={() => form.submit()} destroyOnHidden>
      <Form<Values> form={form} layout="vertical" initialValues={{ action: 'unlock', all: true }} onFinish={(v) => void submit(v)}>
        <Form.Item name="carId" label={t('lockEvents.plate')} rules={[{ required: true, message: t('lockEvents.pickCar') }]}>
          <VehiclePicker data-testid="command-car" />
        </Form.Item>
        <Form.Item name="action" label={t('lockEvents.action')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'unlock', label: t('lockEvents.unlock') },
              { value: 'lock', label: t('lockEvents.lock') },
            ]}
          />
        </Form.Item>
        <Form.Item name="all" valuePropName="checked">
          <Checkbox>{t('lockEvents.allCompartments')}</Checkbox>
        </Form.Item>
        {!all && (
          <Form.Item name="compartments" label={t('lockEvents.compartments')} rules={[{ required: true, message: t('lockEvents.pickCompartments') }]}>
            <Checkbox.Group options={[1, 2, 3, 4, 5, 6, 7, 8].map((c) => ({ value: c, label: String(c) }))} />
          </Form.Item>
        )}
        <div style={{ color: 'rgba(0,0,0,0.45)' }}>{t('lockEvents.commandHint')}</div>
      </Form>
    </Modal>
  );
}
