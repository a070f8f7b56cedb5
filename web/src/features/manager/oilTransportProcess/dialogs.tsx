import { useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, InputNumber, Modal, Select } from 'antd';
import { AxiosError } from 'axios';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusinessError } from '../../../api/client';
import { correctStep, enterReceived, STATES, type TripDetail, type WaybillState } from '../../../api/transportProcess';

/**
 * Runs an action; a business failure's message was shown by the client, any other failure (the
 * endpoint missing, the server down) is said here with its status, never swallowed.
 */
export function useAction() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<unknown>, waybillId: number): Promise<boolean> => {
    setBusy(true);
    try {
      await fn();
      void message.success(t('transportProcess.saved'));
      await client.invalidateQueries({ queryKey: ['transportProcessDetail', waybillId] });
      await client.invalidateQueries({ queryKey: ['oilTransportProcess'] });
      return true;
    } catch (e) {
      if (!(e instanceof BusinessError)) {
        const status = e instanceof AxiosError ? (e.response?.status ?? 0) : 0;
        void message.error(t('transportProcess.actionFailed', { status: status || '—' }));
      }
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy };
}

/** 04-15-01 更正: set the trip to a state with a required reason. */
export function CorrectDialog({ detail, onClose }: { detail: TripDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ state: WaybillState; reason: string }>();
  const { run, busy } = useAction();
  const id = detail.waybill.id;
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    if (await run(() => correctStep({ waybillId: id, state: v.state, reason: v.reason.trim() }), id)) onClose();
  };
  return (
    <Modal open title={t('transportProcess.correctTitle', { no: detail.waybill.no })} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} maskClosable={false} destroyOnHidden>
      <Form form={form} layout="vertical" name="correct">
        <Form.Item label={t('transportProcess.currentState')}>{t(`waybillCommon.state.${detail.waybill.state}`)}</Form.Item>
        <Form.Item name="state" label={t('transportProcess.targetState')} rules={[{ required: true, message: t('transportProcess.targetRequired') }]}>
          <Select
            options={STATES.filter((s) => s !== detail.waybill.state).map((s) => ({ value: s, label: t(`waybillCommon.state.${s}`) }))}
            placeholder={t('transportProcess.targetState')}
          />
        </Form.Item>
        <Form.Item name="reason" label={t('transportProcess.reasonLabel')} rules={[{ required: true, whitespace: true, message: t('transportProcess.reasonRequired') }, { max: 200 }]}>
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 04-15-02 录入收油量: the received V20 at a destination, entered with a reason. */
export function ReceiveDialog({ detail, onClose }: { detail: TripDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ destSeq: number; receivedV20: number; reason: string }>();
  const { run, busy } = useAction();
  const id = detail.waybill.id;
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    if (await run(() => enterReceived({ waybillId: id, destSeq: v.destSeq, receivedV20: v.receivedV20, reason: v.reason.trim() }), id)) onClose();
  };
  const first = detail.destinations.find((d) => d.receivedSource === 0) ?? detail.destinations[0];
  return (
    <Modal open title={t('transportProcess.receiveTitle', { no: detail.waybill.no })} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} maskClosable={false} destroyOnHidden>
      <Form form={form} layout="vertical" name="receive" initialValues={{ destSeq: first?.seq }}>
        <Form.Item name="destSeq" label={t('transportProcess.destination')} rules={[{ required: true, message: t('transportProcess.destRequired') }]}>
          <Select options={detail.destinations.map((d) => ({ value: d.seq, label: `${d.seq}. ${d.stationName}` }))} />
        </Form.Item>
        <Form.Item
          name="receivedV20"
          label={t('transportProcess.receivedV20')}
          extra={detail.waybill.shippedV20 > 0 ? t('transportProcess.shippedHint', { v: detail.waybill.shippedV20.toFixed(1) }) : undefined}
          rules={[{ required: true, message: t('transportProcess.volumeRequired') }]}
        >
          <InputNumber min={0} max={100000} precision={1} style={{ width: 200 }} addonAfter="L" />
        </Form.Item>
        <Form.Item name="reason" label={t('transportProcess.reasonLabel')} rules={[{ required: true, whitespace: true, message: t('transportProcess.reasonRequired') }, { max: 200 }]}>
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
