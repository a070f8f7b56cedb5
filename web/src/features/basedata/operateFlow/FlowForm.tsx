import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Col, Form, Input, Row, Select, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { pageStations } from '../../../api/station';
import { dutyPage, FLOW_KINDS, flowSave, type Flow } from '../../../api/staff';
import { useAppStore } from '../../../app/store';
import { FormModal } from '../../../components/FormModal';
import { GroupSelect } from '../../../components/GroupSelect';
import { pageProducts } from '../transProduct/api';

interface Values {
  groupId?: number;
  name: string;
  kind: number;
  remark?: string;
  steps: { text: string; dutyId?: number }[];
  stationIds?: number[];
  productIds?: number[];
}

const ALL = { pageNum: 1, pageSize: 500 };

/** Add or edit a procedure: its ordered steps (each signed by a duty), and the stations and products it applies to. */
export function FlowForm({ flow, onClose, onSaved }: { flow: Flow | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const session = useAppStore((s) => s.session);
  const duties = useQuery({ queryKey: ['flowForm', 'duties'], queryFn: () => dutyPage(ALL) });
  const stations = useQuery({ queryKey: ['flowForm', 'stations'], queryFn: () => pageStations(ALL) });
  const products = useQuery({ queryKey: ['flowForm', 'products'], queryFn: () => pageProducts(ALL) });
  useEffect(() => {
    form.setFieldsValue(
      flow
        ? {
            ...flow,
            steps: flow.steps.map((s) => ({ text: s.text, dutyId: s.dutyId || undefined })),
            stationIds: flow.stations.map((s) => s.id),
            productIds: flow.products.map((p) => p.id),
          }
        : { groupId: session?.groupId, kind: 1, steps: [{ text: '' }], stationIds: [], productIds: [] },
    );
  }, [flow, form, session]);
  return (
    <FormModal<Values>
      form={form}
      name="flowForm"
      title={t(flow ? 'staff.flowEditTitle' : 'staff.flowAddTitle')}
      isAdd={!flow}
      width={900}
      labelWidth={100}
      save={(v) =>
        flowSave({
          id: flow?.id,
          groupId: v.groupId,
          name: v.name.trim(),
          kind: v.kind,
          remark: (v.remark ?? '').trim(),
          steps: (v.steps ?? []).map((s) => ({ text: s.text.trim(), dutyId: s.dutyId ?? 0 })),
          stationIds: v.stationIds ?? [],
          productIds: v.productIds ?? [],
        })
      }
      onClose={onClose}
      onSaved={onSaved}
    >
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name="name" label={t('staff.flowName')} rules={[{ required: true, whitespace: true, message: t('staff.flowNameRequired') }]}>
            <Input maxLength={30} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="kind" label={t('staff.flowKind')} rules={[{ required: true }]}>
            <Select options={FLOW_KINDS.map((k) => ({ value: k, label: t(`staff.flowKindName.${k}`) }))} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="groupId" label={t('staff.group')} rules={[{ required: true, message: t('common.selectGroup') }]}>
            <GroupSelect />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="remark" label={t('staff.remark')}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label={t('staff.steps')} required>
            <Form.List
              name="steps"
              rules={[{ validator: async (_, v: unknown[]) => (v?.length ? Promise.resolve() : Promise.reject(new Error(t('staff.stepsRequired')))) }]}
            >
              {(fields, { add, remove, move }, { errors }) => (
                <>
                  {fields.map((f, i) => (
                    <Space key={f.key} align="baseline" style={{ display: 'flex', marginBottom: 4 }}>
                      <span style={{ width: 24, display: 'inline-block', textAlign: 'right' }}>{i + 1}.</span>
                      <Form.Item name={[f.name, 'text']} rules={[{ required: true, whitespace: true, message: t('staff.stepRequired') }]} style={{ marginBottom: 0 }}>
                        <Input maxLength={200} style={{ width: 420 }} placeholder={t('staff.stepHint')} data-testid={`flow-step-${i}`} />
                      </Form.Item>
                      <Form.Item name={[f.name, 'dutyId']} style={{ marginBottom: 0 }}>
                        <Select
                          allowClear
                          style={{ width: 160 }}
                          placeholder={t('staff.signedBy')}
                          options={(duties.data?.list ?? []).map((d) => ({ value: d.id, label: d.name }))}
                        />
                      </Form.Item>
                      <Button size="small" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(i, i - 1)} aria-label={t('staff.moveUp')} />
                      <Button size="small" icon={<ArrowDownOutlined />} disabled={i === fields.length - 1} onClick={() => move(i, i + 1)} aria-label={t('staff.moveDown')} />
                      <Button size="small" danger icon={<DeleteOutlined />} disabled={fields.length === 1} onClick={() => remove(f.name)} aria-label={t('common.delete')} />
                    </Space>
                  ))}
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ text: '' })} disabled={fields.length >= 50} data-testid="flow-add-step">
                    {t('staff.addStep')}
                  </Button>
                  <Form.ErrorList errors={errors} />
                </>
              )}
            </Form.List>
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="stationIds" label={t('staff.stations')}>
            <Select
              mode="multiple"
              optionFilterProp="label"
              loading={stations.isLoading}
              options={(stations.data?.list ?? []).map((s) => ({ value: s.id, label: s.stationName }))}
            />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="productIds" label={t('staff.products')}>
            <Select
              mode="multiple"
              optionFilterProp="label"
              loading={products.isLoading}
              options={(products.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
            />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
