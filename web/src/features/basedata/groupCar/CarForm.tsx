import { Col, Divider, Form, Input, InputNumber, Radio, Row, Select, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import { insertCar, updateCar, type Car, type CarInput } from '../../../api/fleet';
import { useAppStore } from '../../../app/store';
import { canonicalPlate, fuelOptions, MOBILE_RE, PLATE_RE, VIN_RE } from './fleetOptions';

export interface CarFormValues {
  plate: string;
  plateColour?: string;
  groupId?: number;
  vehicleClass?: string;
  fuelType?: number;
  loadingMethod?: number;
  vin?: string;
  bodyColour?: string;
  owner?: string;
  trailerNo?: string;
  driverName?: string;
  driverPhone?: string;
  compartments?: number | null;
  smallManholeCoverNumber?: number | null;
  manholeCoverNumber?: number | null;
  oilDischargeValveNumber?: number | null;
  bottomValveNumber?: number | null;
  safeVolume?: number | null;
  tankHeight?: number | null;
  probeLengths?: (number | null | undefined)[];
  speedLimit?: number | null;
  parkingMinutes?: number | null;
  offlineMinutes?: number | null;
  remark?: string;
}

const s = (v: string | undefined) => v?.trim() ?? '';
const n = (v: number | null | undefined) => (typeof v === 'number' ? v : 0);

/** Form values → insert/update body: trimmed texts, plate/VIN upper-cased, empty numbers 0, probe lengths all or none. */
export function toCarBody(v: CarFormValues): CarInput {
  const comps = n(v.compartments);
  const probes = (v.probeLengths ?? []).slice(0, comps);
  return {
    groupId: v.groupId,
    plate: canonicalPlate(s(v.plate)),
    plateColour: s(v.plateColour),
    driverName: s(v.driverName),
    driverPhone: s(v.driverPhone),
    owner: s(v.owner),
    trailerNo: s(v.trailerNo),
    compartments: comps,
    vehicleClass: s(v.vehicleClass),
    fuelType: n(v.fuelType),
    loadingMethod: v.loadingMethod || 1,
    smallManholeCoverNumber: n(v.smallManholeCoverNumber),
    manholeCoverNumber: n(v.manholeCoverNumber),
    oilDischargeValveNumber: n(v.oilDischargeValveNumber),
    bottomValveNumber: n(v.bottomValveNumber),
    speedLimit: n(v.speedLimit),
    parkingMinutes: n(v.parkingMinutes),
    offlineMinutes: n(v.offlineMinutes),
    safeVolume: n(v.safeVolume),
    tankHeight: n(v.tankHeight),
    probeLengths: probes.length === comps && probes.every((p) => typeof p === 'number') ? (probes as number[]) : [],
    vin: s(v.vin).toUpperCase(),
    bodyColour: s(v.bodyColour),
    remark: s(v.remark),
  };
}

function toValues(c: Car | null, defaultGroup?: number): Partial<CarFormValues> {
  if (!c) return { groupId: defaultGroup, fuelType: 0, loadingMethod: 1, probeLengths: [] };
  const { id: _i, groupName: _g, terminalId: _t, terminalPhone: _p, createdAt: _c, updatedAt: _u, ...rest } = c;
  return { ...rest, probeLengths: c.probeLengths ?? [] };
}

/** Add/Edit vehicle modal (two columns, grouped sections). `car` null → add. */
export function CarForm({ car, onClose, onSaved }: { car: Car | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CarFormValues>();
  const myGroup = useAppStore((st) => st.session?.groupId);
  const comps = Form.useWatch('compartments', form);
  const compCount = typeof comps === 'number' && comps >= 1 && comps <= 8 ? comps : 0;
  const isAdd = !car;

  useEffect(() => {
    form.setFieldsValue(toValues(car, myGroup));
  }, [car, myGroup, form]);

  const save = async (v: CarFormValues) => {
    const body = toCarBody(v);
    if (isAdd) await insertCar(body);
    else await updateCar({ ...body, id: car.id });
  };

  const range = (min: number, max: number): Rule => ({ type: 'number', min, max, message: t('car.range', { min, max }) });
  const lockRule: Rule = ({ getFieldValue }) => ({
    validator: (_, v: number | null | undefined) => {
      const c = getFieldValue('compartments') as number | null | undefined;
      return v == null || (v >= 0 && v <= (c ?? 0)) ? Promise.resolve() : Promise.reject(new Error(t('car.countRange')));
    },
  });
  const text = (name: keyof CarFormValues, label: string, max: number, rules: Rule[] = []) => (
    <Col span={12}>
      <Form.Item name={name} label={t(label)} rules={[{ max, message: t('car.range', { min: 0, max }) }, ...rules]}>
        <Input maxLength={max} autoComplete="off" />
      </Form.Item>
    </Col>
  );
  const num = (name: keyof CarFormValues, label: string, rules: Rule[], deps?: string[]) => (
    <Col span={12}>
      <Form.Item name={name} label={t(label)} rules={rules} dependencies={deps}>
        <InputNumber style={{ width: '100%' }} precision={0} />
      </Form.Item>
    </Col>
  );

  return (
    <FormModal<CarFormValues>
      form={form}
      name="carForm"
      title={t(isAdd ? 'car.addTitle' : 'car.editTitle')}
      isAdd={isAdd}
      save={save}
      onClose={onClose}
      onSaved={onSaved}
      width={860}
      labelWidth={120}
    >
      <Divider orientation="left" orientationMargin={0} style={{ marginTop: 0 }}>{t('car.secBasic')}</Divider>
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item
            name="plate"
            label={t('car.plate')}
            rules={[
              { required: true, whitespace: true, message: t('car.plateRequired') },
              { validator: (_, v: string | undefined) => (!v?.trim() || PLATE_RE.test(canonicalPlate(v)) ? Promise.resolve() : Promise.reject(new Error(t('car.plateInvalid')))) },
            ]}
          >
            <Input maxLength={10} autoComplete="off" placeholder="京A12345" />
          </Form.Item>
        </Col>
        {text('plateColour', 'car.plateColour', 16)}
        <Col span={12}>
          <Form.Item name="groupId" label={t('car.group')} rules={[{ required: true, message: t('car.groupRequired') }]}>
            <GroupSelect />
          </Form.Item>
        </Col>
        {text('vehicleClass', 'car.vehicleClass', 32)}
        <Col span={12}>
          <Form.Item name="fuelType" label={t('car.fuelType')}>
            <Select options={fuelOptions(t)} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="loadingMethod" label={t('car.loadingMethod')}>
            <Radio.Group options={[{ value: 1, label: t('car.loadTop') }, { value: 2, label: t('car.loadBottom') }]} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="vin"
            label={t('car.vin')}
            rules={[{ validator: (_, v: string | undefined) => (!v?.trim() || VIN_RE.test(v.trim().toUpperCase()) ? Promise.resolve() : Promise.reject(new Error(t('car.vinInvalid')))) }]}
          >
            <Input maxLength={17} autoComplete="off" />
          </Form.Item>
        </Col>
        {text('bodyColour', 'car.bodyColour', 16)}
        {text('owner', 'car.owner', 64)}
        {text('trailerNo', 'car.trailerNo', 16)}
      </Row>
      <Divider orientation="left" orientationMargin={0}>{t('car.secDriver')}</Divider>
      <Row gutter={24}>
        {text('driverName', 'car.driverName', 32)}
        <Col span={12}>
          <Form.Item name="driverPhone" label={t('car.driverPhone')} rules={[{ pattern: MOBILE_RE, message: t('car.phoneInvalid') }]}>
            <Input maxLength={11} autoComplete="off" />
          </Form.Item>
        </Col>
      </Row>
      <Divider orientation="left" orientationMargin={0}>{t('car.secTank')}</Divider>
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item
            name="compartments"
            label={t('car.compartments')}
            rules={[
              { validator: (_, v: number | null | undefined) => (v ? Promise.resolve() : Promise.reject(new Error(t('car.compartmentsRequired')))) },
              { type: 'number', min: 1, max: 8, message: t('car.compartmentsRange') },
            ]}
          >
            <InputNumber style={{ width: '100%' }} precision={0} />
          </Form.Item>
        </Col>
        {num('smallManholeCoverNumber', 'car.smallManhole', [lockRule], ['compartments'])}
        {num('manholeCoverNumber', 'car.manhole', [lockRule], ['compartments'])}
        {num('oilDischargeValveNumber', 'car.dischargeValve', [lockRule], ['compartments'])}
        {num('bottomValveNumber', 'car.bottomValve', [lockRule], ['compartments'])}
        {num('safeVolume', 'car.safeVolume', [range(0, 100000)])}
        {num('tankHeight', 'car.tankHeight', [range(0, 10000)])}
        {compCount > 0 && (
          <Col span={24}>
            <Form.Item label={t('car.probeLengths')} labelCol={{ flex: '120px' }}>
              <Space wrap>
                {Array.from({ length: compCount }, (_, i) => (
                  <Form.Item
                    key={i}
                    name={['probeLengths', i]}
                    noStyle={false}
                    style={{ marginBottom: 0 }}
                    rules={[
                      range(1, 10000),
                      ({ getFieldValue }) => ({
                        validator: (_, v: number | null | undefined) => {
                          const all = ((getFieldValue('probeLengths') as (number | null | undefined)[] | undefined) ?? []).slice(0, compCount);
                          const filled = all.filter((p) => typeof p === 'number').length;
                          return filled === 0 || filled === compCount || typeof v === 'number' ? Promise.resolve() : Promise.reject(new Error(t('car.probeRequired')));
                        },
                      }),
                    ]}
                  >
                    <InputNumber aria-label={t('car.probeN', { n: i + 1 })} placeholder={t('car.probeN', { n: i + 1 })} style={{ width: 110 }} precision={0} />
                  </Form.Item>
                ))}
              </Space>
            </Form.Item>
          </Col>
        )}
      </Row>
      <Divider orientation="left" orientationMargin={0}>{t('car.secThreshold')}</Divider>
      <Row gutter={24}>
        {num('speedLimit', 'car.speedLimit', [range(0, 200)])}
        {num('parkingMinutes', 'car.parkingMinutes', [range(0, 10000)])}
        {num('offlineMinutes', 'car.offlineMinutes', [range(0, 10000)])}
        <Col span={24}>
          <Form.Item name="remark" label={t('car.remark')} rules={[{ max: 255, message: t('car.range', { min: 0, max: 255 }) }]}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
