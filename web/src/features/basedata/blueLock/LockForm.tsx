import { Col, Form, Input, Row, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../app/store';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import { KINDS, lockSave, SETTABLE_STATES, type Lock, type LockInput } from './api';

/** Serial rule of the server: 4–32 of A–Z, 0–9 and '-' once upper-cased. */
export const SERIAL_RE = /^[A-Za-z0-9-]{4,32}$/;

export interface LockFormValues {
  groupId?: number;
  serial: string;
  kind: number;
  model?: string;
  firmware?: string;
  state?: number;
  remark?: string;
}

export function toLockBody(v: LockFormValues, id?: number): LockInput {
  return {
    id,
    groupId: v.groupId,
    serial: v.serial.trim().toUpperCase(),
    kind: v.kind,
    model: (v.model ?? '').trim(),
    firmware: (v.firmware ?? '').trim(),
    state: v.state,
    remark: (v.remark ?? '').trim(),
  };
}

/** Add or edit a lock: serial, type, model, firmware, group and (when not bound) its state. */
export function LockForm({ lock, onClose, onSaved }: { lock: Lock | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LockFormValues>();
  const session = useAppStore((s) => s.session);
  const bound = !!lock?.carId;
  useEffect(() => {
    form.setFieldsValue(lock ? { ...lock, state: bound ? undefined : lock.state } : { groupId: session?.groupId, kind: 2, state: 1 });
  }, [lock, bound, form, session]);
  return (
    <FormModal<LockFormValues>
      form={form}
      name="lockForm"
      title={t(lock ? 'locks.editTitle' : 'locks.addTitle')}
      isAdd={!lock}
      save={(v) => lockSave(toLockBody(v, lock?.id))}
      onClose={onClose}
      onSaved={onSaved}
      labelWidth={110}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item
            name="serial"
            label={t('locks.serial')}
            extra={t('locks.serialHint')}
            rules={[
              { required: true, whitespace: true, message: t('locks.serialRequired') },
              { pattern: SERIAL_RE, message: t('locks.serialHint') },
            ]}
          >
            <Input maxLength={32} autoComplete="off" style={{ textTransform: 'uppercase' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="kind" label={t('locks.kind')} rules={[{ required: true, message: t('locks.kindRequired') }]}>
            <Select options={KINDS.map((k) => ({ value: k, label: t(`locks.kindName.${k}`) }))} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="model" label={t('locks.model')}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="firmware" label={t('locks.firmware')}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="groupId" label={t('locks.group')} rules={[{ required: true, message: t('common.selectGroup') }]}>
            <GroupSelect />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="state" label={t('locks.state')} extra={bound ? t('locks.stateBoundHint') : undefined}>
            <Select disabled={bound} placeholder={bound ? t('locks.stateName.2') : undefined} options={SETTABLE_STATES.map((s) => ({ value: s, label: t(`locks.stateName.${s}`) }))} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('locks.remark')}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
