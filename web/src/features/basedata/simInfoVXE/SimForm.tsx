import { Col, DatePicker, Form, Input, Row, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import { insertSim, updateSim, type Operator, type Sim, type SimInput } from '../../../api/fleet';
import { useAppStore } from '../../../app/store';

export interface SimFormValues {
  groupId?: number;
  iccid: string;
  msisdn: string;
  operator?: Operator;
  status: boolean;
  expireAt?: Dayjs | null;
  remark?: string;
}

/** Server rules (internal/fleet/sims.go). */
export const ICCID_RE = /^\d{19,20}$/;
export const MSISDN_RE = /^\d{11,13}$/;
export const OPERATORS = ['cmcc', 'cucc', 'ctcc'] as const;

export function toSimBody(v: SimFormValues): SimInput {
  return {
    groupId: v.groupId,
    iccid: v.iccid.trim(),
    msisdn: v.msisdn.trim(),
    operator: v.operator ?? '',
    status: v.status ? 1 : 0,
    expireAt: v.expireAt ? v.expireAt.format('YYYY-MM-DD') : null,
    remark: v.remark?.trim() ?? '',
  };
}

const pattern = (re: RegExp, msg: string) => ({
  validator: (_: unknown, v: string | undefined) => (!v?.trim() || re.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(msg))),
});

/** Add/Edit SIM card modal. */
export function SimForm({ sim, onClose, onSaved }: { sim: Sim | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SimFormValues>();
  const myGroup = useAppStore((st) => st.session?.groupId);
  const isAdd = !sim;

  useEffect(() => {
    form.setFieldsValue(
      sim
        ? { groupId: sim.groupId, iccid: sim.iccid, msisdn: sim.msisdn, operator: sim.operator || undefined, status: sim.status === 1, expireAt: sim.expireAt ? dayjs(sim.expireAt) : null, remark: sim.remark }
        : { groupId: myGroup, status: true },
    );
  }, [sim, myGroup, form]);

  const save = async (v: SimFormValues) => {
    const body = toSimBody(v);
    if (isAdd) await insertSim(body);
    else await updateSim({ ...body, id: sim.id });
  };

  return (
    <FormModal<SimFormValues>
      form={form}
      name="simForm"
      title={t(isAdd ? 'simInfo.addTitle' : 'simInfo.editTitle')}
      isAdd={isAdd}
      save={save}
      onClose={onClose}
      onSaved={onSaved}
      width={760}
      labelWidth={96}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name="iccid" label={t('simInfo.iccid')} rules={[{ required: true, whitespace: true, message: t('simInfo.iccidRequired') }, pattern(ICCID_RE, t('simInfo.iccidInvalid'))]}>
            <Input maxLength={20} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="msisdn" label={t('simInfo.msisdn')} rules={[{ required: true, whitespace: true, message: t('simInfo.msisdnRequired') }, pattern(MSISDN_RE, t('simInfo.msisdnInvalid'))]}>
            <Input maxLength={13} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="groupId" label={t('simInfo.group')} rules={[{ required: true, message: t('simInfo.groupRequired') }]}>
            <GroupSelect />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="operator" label={t('simInfo.operator')}>
            <Select allowClear options={OPERATORS.map((o) => ({ value: o, label: t(`simInfo.${o}`) }))} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="expireAt" label={t('simInfo.expireAt')}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="status" label={t('simInfo.status')} valuePropName="checked">
            <Switch checkedChildren={t('simInfo.enabled')} unCheckedChildren={t('simInfo.disabled')} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('simInfo.remark')} rules={[{ max: 255, message: t('car.range', { min: 0, max: 255 }) }]}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
