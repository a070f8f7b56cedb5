import { App, Alert, Checkbox, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VehiclePicker } from '../../../components/VehiclePicker';
import { DEVICES, lockBind, lockUnbind, type Lock } from './api';

interface BindValues {
  carId: number;
  compartment: number;
  device: number;
  move?: boolean;
  reason?: string;
}

/** The place of a bound lock in words: plate, compartment, device. */
export function placeText(t: (k: string, o?: Record<string, unknown>) => string, l: Pick<Lock, 'carId' | 'plate' | 'compartment' | 'device'>): string {
  return l.carId ? t('locks.place', { plate: l.plate, compartment: l.compartment, device: t(`locks.deviceName.${l.device}`) }) : '—';
}

/** Runs a call with the spinner on the OK button; the dialog closes on success (the client showed a failure). */
function useRun(onDone: () => void) {
  const { message } = App.useApp();
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await fn();
      void message.success(t('common.operationSuccess'));
      onDone();
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

/** Bind a lock to a car's compartment device; a bound lock can be moved (unbound and bound in one step). */
export function BindModal({ lock, onClose, onDone }: { lock: Lock; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BindValues>();
  const { busy, run } = useRun(onDone);
  const bound = !!lock.carId;
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    await run(() => lockBind({ lockId: lock.id, carId: v.carId, compartment: v.compartment, device: v.device, move: !!v.move, reason: (v.reason ?? '').trim() }));
  };
  return (
    <Modal open title={t(bound ? 'locks.moveTitle' : 'locks.bindTitle', { serial: lock.serial })} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okText={t('common.ok')} cancelText={t('common.cancel')} maskClosable={false} destroyOnHidden>
      {bound && <Alert style={{ marginBottom: 12 }} type="info" showIcon message={t('locks.boundNow', { place: placeText(t, lock) })} />}
      <Form<BindValues> form={form} name="bindForm" layout="horizontal" labelCol={{ flex: '100px' }} labelAlign="left" colon={false} initialValues={{ compartment: 1, device: 1, move: bound }}>
        <Form.Item name="carId" label={t('locks.car')} rules={[{ required: true, message: t('locks.carRequired') }]}>
          <VehiclePicker placeholder={t('locks.carPlaceholder')} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="compartment" label={t('locks.compartment')} extra={t('locks.compartmentHint')} rules={[{ required: true, message: t('locks.compartmentRequired') }]}>
          <InputNumber min={1} max={8} precision={0} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="device" label={t('locks.device')} rules={[{ required: true }]}>
          <Select options={DEVICES.map((d) => ({ value: d, label: t(`locks.deviceName.${d}`) }))} />
        </Form.Item>
        {bound && (
          <Form.Item name="move" valuePropName="checked" label=" ">
            <Checkbox>{t('locks.moveConfirm')}</Checkbox>
          </Form.Item>
        )}
        <Form.Item name="reason" label={t('locks.reason')}>
          <Input maxLength={255} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Unbind a lock: asks for the reason (required), recorded with who and when. */
export function UnbindModal({ lock, onClose, onDone }: { lock: Lock; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const { busy, run } = useRun(onDone);
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (v) await run(() => lockUnbind(lock.id, v.reason.trim()));
  };
  return (
    <Modal open title={t('locks.unbindTitle', { serial: lock.serial })} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okText={t('common.ok')} cancelText={t('common.cancel')} okButtonProps={{ danger: true }} maskClosable={false} destroyOnHidden>
      <Alert style={{ marginBottom: 12 }} type="warning" showIcon message={t('locks.unbindFrom', { place: placeText(t, lock) })} />
      <Form form={form} name="unbindForm" layout="vertical">
        <Form.Item name="reason" label={t('locks.reason')} rules={[{ required: true, whitespace: true, message: t('locks.reasonRequired') }]}>
          <Input.TextArea maxLength={255} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
