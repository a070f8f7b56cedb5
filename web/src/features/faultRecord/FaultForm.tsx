import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { faultAdd, faultEdit, faultMeta, faultTechnicians, nextStates, type Fault, type FaultInput, type FaultState, type SourceKind } from '../../api/faults';
import { FormModal } from '../../components/FormModal';
import { VehiclePicker } from '../../components/VehiclePicker';
import { useCodes } from '../../api/useCodes';

const F = 'YYYY-MM-DD HH:mm:ss';

/** A fault raised from another record: the car (shown by its plate), the link and a suggested symptom. */
export interface FaultSource {
  carId: number;
  plate: string;
  kind: Exclude<SourceKind, ''>;
  sourceId: number;
  sourceAt?: string;
  faultType: string;
  device?: string;
  symptom: string;
}

interface Values {
  carId: number;
  device?: string;
  faultType: string;
  symptom: string;
  reportedBy?: string;
  reportedAt?: Dayjs;
  technicianId?: number;
  state: FaultState;
  resolution?: string;
  visits?: { at?: Dayjs; technician?: string; work?: string }[];
  parts?: { name?: string; quantity?: number }[];
}

/** The dialog's values as the request. */
export function toFaultInput(v: Values, fault?: Fault, source?: FaultSource): FaultInput {
  return {
    ...(fault ? { id: fault.id } : {}),
    carId: fault?.carId ?? source?.carId ?? v.carId,
    device: v.device?.trim() ?? '',
    faultType: v.faultType,
    symptom: v.symptom.trim(),
    reportedBy: v.reportedBy?.trim() ?? '',
    ...(v.reportedAt ? { reportedAt: v.reportedAt.format(F) } : {}),
    technicianId: v.technicianId ?? 0,
    state: v.state,
    resolution: v.resolution?.trim() ?? '',
    visits: (v.visits ?? []).map((x) => ({ at: x.at ? x.at.format(F) : '', technician: x.technician?.trim() ?? '', work: x.work?.trim() ?? '' })),
    parts: (v.parts ?? []).map((x) => ({ name: x.name?.trim() ?? '', quantity: x.quantity ?? 0 })),
    ...(source && !fault ? { sourceKind: source.kind, sourceId: source.sourceId, ...(source.sourceAt ? { sourceAt: source.sourceAt } : {}) } : {}),
  };
}

function initialValues(fault?: Fault, source?: FaultSource): Partial<Values> {
  if (fault) {
    return {
      carId: fault.carId,
      device: fault.device,
      faultType: fault.faultType,
      symptom: fault.symptom,
      reportedBy: fault.reportedBy,
      reportedAt: dayjs(fault.reportedAt),
      technicianId: fault.technicianId || undefined,
      state: fault.state,
      resolution: fault.resolution,
      visits: fault.visits.map((x) => ({ at: dayjs(x.at), technician: x.technician, work: x.work })),
      parts: fault.parts,
    };
  }
  return { state: 'open', reportedAt: dayjs(), ...(source ? { carId: source.carId, faultType: source.faultType, device: source.device, symptom: source.symptom } : {}) };
}

/** Add or edit a fault record; `source` pre-fills one raised from an offline record or a sensor event. */
export function FaultForm({ fault, source, onClose, onSaved }: { fault?: Fault; source?: FaultSource; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const meta = useQuery({ queryKey: ['faultMeta'], queryFn: faultMeta, staleTime: Infinity });
  const types = useCodes('faultType');
  const techs = useQuery({ queryKey: ['faultTechnicians'], queryFn: faultTechnicians, staleTime: 60_000 });
  const state = Form.useWatch('state', form);
  const plate = fault?.plate ?? source?.plate;
  useEffect(() => {
    form.setFieldsValue(initialValues(fault, source) as Values);
  }, [form, fault, source]);
  return (
    <FormModal<Values>
      form={form}
      name="faultForm"
      title={fault ? t('faults.edit') : source ? t('faults.raise') : t('faults.add')}
      isAdd={!fault}
      width={820}
      labelWidth={100}
      save={(v) => (fault ? faultEdit(toFaultInput(v, fault)) : faultAdd(toFaultInput(v, undefined, source)))}
      onClose={onClose}
      onSaved={onSaved}
    >
      {plate ? (
        <Form.Item label={t('faults.plate')}>
          <Typography.Text strong data-testid="fault-plate">
            {plate}
          </Typography.Text>
          {source && <Typography.Text type="secondary">{`  ${t(`faults.source.${source.kind}`)}`}</Typography.Text>}
        </Form.Item>
      ) : (
        <Form.Item name="carId" label={t('faults.plate')} rules={[{ required: true, message: t('faults.carRequired') }]}>
          <VehiclePicker style={{ width: '100%' }} />
        </Form.Item>
      )}
      <Form.Item name="faultType" label={t('faults.type')} rules={[{ required: true, message: t('faults.typeRequired') }]}>
        <Select options={types.options(fault?.faultType)} loading={types.loading} data-testid="fault-type" />
      </Form.Item>
      <Form.Item name="device" label={t('faults.device')}>
        <Input maxLength={64} placeholder={t('faults.devicePlaceholder')} />
      </Form.Item>
      <Form.Item name="symptom" label={t('faults.symptom')} rules={[{ required: true, whitespace: true, message: t('faults.symptomRequired') }]}>
        <Input.TextArea maxLength={500} rows={2} />
      </Form.Item>
      <Form.Item label={t('faults.reported')} style={{ marginBottom: 0 }}>
        <Space>
          <Form.Item name="reportedBy">
            <Input maxLength={64} placeholder={t('faults.reportedBy')} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="reportedAt">
            <DatePicker showTime format={F} style={{ width: 200 }} disabledDate={(d) => d.isAfter(dayjs(), 'day')} />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item label={t('faults.technician')} style={{ marginBottom: 0 }}>
        <Space>
          <Form.Item name="technicianId">
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              style={{ width: 200 }}
              placeholder={t('faults.technicianPlaceholder')}
              loading={techs.isLoading}
              options={(techs.data ?? []).map((u) => ({ value: u.id, label: u.name, title: u.groupName }))}
            />
          </Form.Item>
          <Form.Item name="state" label={t('faults.state')} rules={[{ required: true }]}>
            <Select style={{ width: 140 }} options={nextStates(meta.data, fault?.state).map((s) => ({ value: s, label: t(`faults.stateName.${s}`) }))} />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item label={t('faults.visits')}>
        <Form.List name="visits">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="baseline" style={{ display: 'flex' }}>
                  <Form.Item name={[f.name, 'at']} rules={[{ required: true, message: t('faults.visitAtRequired') }]}>
                    <DatePicker showTime format={F} style={{ width: 190 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'technician']} rules={[{ required: true, whitespace: true, message: t('faults.visitTechRequired') }]}>
                    <Input maxLength={64} placeholder={t('faults.visitTechnician')} style={{ width: 130 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'work']} rules={[{ required: true, whitespace: true, message: t('faults.visitWorkRequired') }]}>
                    <Input maxLength={500} placeholder={t('faults.visitWork')} style={{ width: 250 }} />
                  </Form.Item>
                  <MinusCircleOutlined aria-label={t('common.delete')} onClick={() => remove(f.name)} />
                </Space>
              ))}
              <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => add({ at: dayjs() })}>
                {t('faults.addVisit')}
              </Button>
            </>
          )}
        </Form.List>
      </Form.Item>
      <Form.Item label={t('faults.parts')}>
        <Form.List name="parts">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="baseline" style={{ display: 'flex' }}>
                  <Form.Item name={[f.name, 'name']} rules={[{ required: true, whitespace: true, message: t('faults.partNameRequired') }]}>
                    <Input maxLength={64} placeholder={t('faults.partName')} style={{ width: 220 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'quantity']} rules={[{ required: true, message: t('faults.partQtyRequired') }]}>
                    <InputNumber min={0.01} max={10000} placeholder={t('faults.partQty')} style={{ width: 110 }} />
                  </Form.Item>
                  <MinusCircleOutlined aria-label={t('common.delete')} onClick={() => remove(f.name)} />
                </Space>
              ))}
              <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => add({ quantity: 1 })}>
                {t('faults.addPart')}
              </Button>
            </>
          )}
        </Form.List>
      </Form.Item>
      <Form.Item
        name="resolution"
        label={t('faults.resolution')}
        rules={[{ required: state === 'closed', whitespace: true, message: t('faults.resolutionRequired') }]}
      >
        <Input.TextArea maxLength={500} rows={2} />
      </Form.Item>
    </FormModal>
  );
}
