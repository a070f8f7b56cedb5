import { Col, Form, Input, Row, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import { insertTerminal, updateTerminal, type Terminal, type TerminalInput } from '../../../api/fleet';
import { useAppStore } from '../../../app/store';

export interface TerminalFormValues {
  groupId?: number;
  phone: string;
  deviceId?: string;
  manufacturer?: string;
  model?: string;
  protocol?: number;
  authCode?: string;
  status: boolean;
  remark?: string;
}

/** Server rules (internal/fleet/terminals.go). */
export const TERMINAL_PHONE_RE = /^\d{1,20}$/;
export const DEVICE_ID_RE = /^[A-Za-z0-9]{0,30}$/;
export const PROTOCOLS = [2011, 2013, 2019];

const s = (v: string | undefined) => v?.trim() ?? '';

export function toTerminalBody(v: TerminalFormValues): TerminalInput {
  return {
    groupId: v.groupId,
    phone: s(v.phone),
    deviceId: s(v.deviceId),
    manufacturer: s(v.manufacturer),
    model: s(v.model),
    protocol: v.protocol ?? 2019,
    authCode: s(v.authCode),
    status: v.status ? 1 : 0,
    remark: s(v.remark),
  };
}

/** Add/Edit terminal modal; the binding is changed with the Bind action, not here. */
export function TerminalForm({ terminal, onClose, onSaved }: { terminal: Terminal | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TerminalFormValues>();
  const myGroup = useAppStore((st) => st.session?.groupId);
  const isAdd = !terminal;

  useEffect(() => {
    form.setFieldsValue(
      terminal
        ? { ...terminal, status: terminal.status === 1 }
        : { groupId: myGroup, protocol: 2019, status: true },
    );
  }, [terminal, myGroup, form]);

  const save = async (v: TerminalFormValues) => {
    const body = toTerminalBody(v);
    if (isAdd) await insertTerminal(body);
    else await updateTerminal({ ...body, id: terminal.id });
  };

  const text = (name: keyof TerminalFormValues, label: string, max: number) => (
    <Col span={12}>
      <Form.Item name={name} label={t(label)} rules={[{ max, message: t('car.range', { min: 0, max }) }]}>
        <Input maxLength={max} autoComplete="off" />
      </Form.Item>
    </Col>
  );

  return (
    <FormModal<TerminalFormValues>
      form={form}
      name="terminalForm"
      title={t(isAdd ? 'terminal.addTitle' : 'terminal.editTitle')}
      isAdd={isAdd}
      save={save}
      onClose={onClose}
      onSaved={onSaved}
      width={760}
      labelWidth={100}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item
            name="phone"
            label={t('terminal.phone')}
            rules={[
              { required: true, whitespace: true, message: t('terminal.phoneRequired') },
              { validator: (_, v: string | undefined) => (!v?.trim() || TERMINAL_PHONE_RE.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('terminal.phoneInvalid')))) },
            ]}
          >
            <Input maxLength={20} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="deviceId"
            label={t('terminal.deviceId')}
            extra={t('terminal.deviceIdHint')}
            rules={[{ validator: (_, v: string | undefined) => (DEVICE_ID_RE.test(v?.trim() ?? '') ? Promise.resolve() : Promise.reject(new Error(t('terminal.deviceIdInvalid')))) }]}
          >
            <Input maxLength={30} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="groupId" label={t('terminal.group')} rules={[{ required: true, message: t('terminal.groupRequired') }]}>
            <GroupSelect />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="protocol" label={t('terminal.protocol')}>
            <Select options={PROTOCOLS.map((p) => ({ value: p, label: `JT/T 808-${p}` }))} />
          </Form.Item>
        </Col>
        {text('manufacturer', 'terminal.manufacturer', 64)}
        {text('model', 'terminal.model', 64)}
        {text('authCode', 'terminal.authCode', 64)}
        <Col span={12}>
          <Form.Item name="status" label={t('terminal.status')} valuePropName="checked">
            <Switch checkedChildren={t('terminal.enabled')} unCheckedChildren={t('terminal.disabled')} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('terminal.remark')} rules={[{ max: 255, message: t('car.range', { min: 0, max: 255 }) }]}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
