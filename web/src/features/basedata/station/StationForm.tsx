import { App, Col, Form, Input, Row, Select } from 'antd';
import { useEffect, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addStation, STATION_TYPES, updateStation, type Station, type StationInput } from '../../../api/station';
import { codeOptions, useCodeList } from '../../../api/settings';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import { draftOf, fenceBody, fenceProblem, fenceReducer, type FenceDraft } from '../../../lib/fence';
import { FenceEditor } from './FenceEditor';
import './station.css';

export interface StationFormValues {
  stationName: string;
  stationType: string;
  groupId?: number;
  address?: string;
  contact?: string;
  phone?: string;
  remark?: string;
}

/** What opens the form: a new station, a station to edit, or a suspected station to promote (prefilled circle). */
export type StationFormTarget =
  | { mode: 'add'; center?: [number, number] }
  | { mode: 'edit'; station: Station }
  | { mode: 'promote'; suspectId: number; groupId: number; lng: number; lat: number; address?: string };

export function toStationBody(v: StationFormValues, d: FenceDraft): StationInput {
  return {
    stationName: v.stationName.trim(),
    stationType: v.stationType,
    groupId: v.groupId,
    address: v.address?.trim() ?? '',
    contact: v.contact?.trim() ?? '',
    phone: v.phone?.trim() ?? '',
    remark: v.remark?.trim() ?? '',
    ...fenceBody(d),
  };
}

function initialDraft(target: StationFormTarget): FenceDraft {
  if (target.mode === 'edit') return draftOf(target.station);
  if (target.mode === 'promote') return draftOf({ fenceType: 2, fenceCenter: `${target.lng},${target.lat}`, raduis: 300 });
  return draftOf(null);
}

/** Add / edit / promote a station: the fields and the fence drawn on the map. */
export function StationForm({ target, onClose, onSaved }: { target: StationFormTarget; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<StationFormValues>();
  // the station types of the code list (access/baseType); today's built-in types until it has answered
  const types = useCodeList('stationType');
  const typeOptions = types.data
    ? codeOptions(types.data, i18n.language, target.mode === 'edit' ? target.station.stationType : undefined)
    : STATION_TYPES.map((v) => ({ value: v as string, label: t(`station.type.${v}`) }));
  const [draft, dispatch] = useReducer(fenceReducer, target, initialDraft);
  const [tried, setTried] = useState(false);

  useEffect(() => {
    if (target.mode === 'edit') {
      const s = target.station;
      form.setFieldsValue({ stationName: s.stationName, stationType: s.stationType, groupId: s.groupId, address: s.address, contact: s.contact, phone: s.phone, remark: s.remark });
    } else if (target.mode === 'promote') {
      form.setFieldsValue({ stationType: 'jyz', groupId: target.groupId, address: target.address });
    } else form.setFieldsValue({ stationType: 'jyz' });
  }, [target, form]);

  const save = async (v: StationFormValues) => {
    setTried(true);
    const problem = fenceProblem(draft);
    if (problem) {
      void message.warning(t(problem, { min: 10, max: 50 }));
      throw new Error(problem);
    }
    const body = toStationBody(v, draft);
    if (target.mode === 'edit') return updateStation({ ...body, id: target.station.id });
    if (target.mode === 'promote') return addStation({ ...body, suspectId: target.suspectId });
    return addStation(body);
  };

  const center: [number, number] | undefined =
    target.mode === 'edit' ? [target.station.lng, target.station.lat] : target.mode === 'promote' ? [target.lng, target.lat] : target.center;

  return (
    <FormModal<StationFormValues>
      form={form}
      name="stationForm"
      title={t(target.mode === 'edit' ? 'station.editTitle' : target.mode === 'promote' ? 'station.promoteTitle' : 'station.addTitle')}
      isAdd={target.mode !== 'edit'}
      save={save}
      onClose={onClose}
      onSaved={onSaved}
      onInvalid={() => {
        setTried(true);
        void message.warning(t('station.incomplete'));
      }}
      width={960}
      labelWidth={110}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name="stationName" label={t('station.stationName')} rules={[{ required: true, whitespace: true, message: t('station.nameRequired') }]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="stationType" label={t('station.stationType')} rules={[{ required: true, message: t('station.typeRequired') }]}>
            <Select options={typeOptions} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="groupId" label={t('station.group')}>
            <GroupSelect />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="address" label={t('station.address')}>
            <Input maxLength={255} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="contact" label={t('station.contact')}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="phone" label={t('station.phone')} rules={[{ pattern: /^[0-9+\-() ]*$/, message: t('station.phoneInvalid') }]}>
            <Input maxLength={32} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label={t('station.fence')} required>
            <FenceEditor draft={draft} dispatch={dispatch} center={center} showProblem={tried} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('station.remark')}>
            <Input.TextArea maxLength={255} rows={2} />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
