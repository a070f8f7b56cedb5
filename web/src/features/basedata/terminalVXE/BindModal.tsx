import { useQuery } from '@tanstack/react-query';
import { App, Form, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bindTerminal, pageCars, pageSims, type Terminal } from '../../../api/fleet';

/** Bind a car and a SIM card (of the terminal's organisation) to a terminal; clearing a field unbinds it. */
export function BindModal({ terminal, onClose, onDone }: { terminal: Terminal; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ carId?: number | null; simId?: number | null }>();
  const [saving, setSaving] = useState(false);
  const cars = useQuery({ queryKey: ['bindCars', terminal.groupId], queryFn: () => pageCars({ pageNum: 1, pageSize: 500, groupId: terminal.groupId, sortField: 'plate', sortOrder: 'ascend' }) });
  const sims = useQuery({ queryKey: ['bindSims', terminal.groupId], queryFn: () => pageSims({ pageNum: 1, pageSize: 500, groupId: terminal.groupId, sortField: 'msisdn', sortOrder: 'ascend' }) });

  const submit = async () => {
    const v = form.getFieldsValue();
    setSaving(true);
    try {
      await bindTerminal(terminal.id, v.carId ?? null, v.simId ?? null);
      void message.success(t('common.operationSuccess'));
      onDone();
    } catch {
      // server message (e.g. 该车辆已绑定终端 X，请先解绑) already shown
    } finally {
      setSaving(false);
    }
  };

  const carOptions = (cars.data?.list ?? []).map((c) => ({
    value: c.id,
    label: c.terminalPhone && c.terminalId !== terminal.id ? `${c.plate} (${c.terminalPhone})` : c.plate,
  }));
  const simOptions = (sims.data?.list ?? []).map((s) => ({
    value: s.id,
    label: s.terminalPhone && s.terminalId !== terminal.id ? `${s.msisdn} (${s.terminalPhone})` : s.msisdn,
  }));

  return (
    <Modal open title={t('terminal.bindTitle', { phone: terminal.phone })} onCancel={onClose} onOk={() => void submit()} okText={t('common.save')} cancelText={t('common.cancel')} confirmLoading={saving} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false} initialValues={{ carId: terminal.carId ?? undefined, simId: terminal.simId ?? undefined }}>
        <Form.Item name="carId" label={t('terminal.car')} extra={t('terminal.unbindHint')}>
          <Select allowClear showSearch optionFilterProp="label" loading={cars.isLoading} options={carOptions} />
        </Form.Item>
        <Form.Item name="simId" label={t('terminal.sim')} extra={t('terminal.unbindHint')}>
          <Select allowClear showSearch optionFilterProp="label" loading={sims.isLoading} options={simOptions} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
