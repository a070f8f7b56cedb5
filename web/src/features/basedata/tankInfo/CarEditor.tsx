import { Alert, App, Button, Checkbox, Drawer, Empty, Form, Input, InputNumber, Select, Space, Spin, Tabs, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getCar, PRODUCTS, saveCar, type CarView } from '../../../api/tankInfo';
import { AuthButton, useAuth } from '../../../components/AuthButton';
import { changed, draftOf, problems, toSave, type CompDraft } from './fields';
import { StrapEditor } from './StrapEditor';

/** A car's compartments: one tab per compartment with its fields and strapping table; saved together. */
export function CarEditor({ carId, plate, onClose, onSaved }: { carId: number; plate: string; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const canEdit = useAuth('edit');
  const [car, setCar] = useState<CarView | null>(null);
  const [failed, setFailed] = useState(false);
  const [initial, setInitial] = useState<CompDraft[]>([]);
  const [drafts, setDrafts] = useState<CompDraft[]>([]);
  const [tab, setTab] = useState('1');
  const [saving, setSaving] = useState(false);

  const load = (v: CarView) => {
    setCar(v);
    const d = v.compartments.map(draftOf);
    setInitial(d);
    setDrafts(d);
  };
  useEffect(() => {
    getCar(carId).then(load, () => setFailed(true));
  }, [carId]);

  const dirty = useMemo(() => changed(drafts, initial), [drafts, initial]);
  const update = (no: number, patch: Partial<CompDraft>) => setDrafts((ds) => ds.map((d) => (d.no === no ? { ...d, keep: true, ...patch } : d)));

  const close = () => {
    if (!dirty) return onClose();
    modal.confirm({ title: t('tankInfo.discardTitle'), content: t('tankInfo.discardText'), okText: t('tankInfo.discard'), cancelText: t('common.cancel'), okButtonProps: { danger: true }, onOk: onClose });
  };

  const save = async () => {
    const bad = drafts.find((d) => d.keep && !d.outside && problems(d).length > 0);
    if (bad) {
      setTab(String(bad.no));
      void message.error(t('tankInfo.fixFirst', { no: bad.no }));
      return;
    }
    setSaving(true);
    try {
      load(await saveCar(carId, toSave(drafts)));
      void message.success(t('common.modifySuccess'));
      onSaved();
    } catch {
      // the server's message was shown
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open
      width={1180}
      title={t('tankInfo.carTitle', { plate: car?.plate ?? plate })}
      onClose={close}
      maskClosable={false}
      destroyOnHidden
      extra={
        <Space>
          {dirty && <Tag color="orange">{t('tankInfo.unsaved')}</Tag>}
          <Button onClick={close}>{t('common.close')}</Button>
          <AuthButton code="edit">
            <Button type="primary" loading={saving} disabled={!car || !dirty} onClick={() => void save()} data-testid="car-save">
              {t('common.save')}
            </Button>
          </AuthButton>
        </Space>
      }
    >
      {failed && <Alert type="error" showIcon message={t('common.requestFailed')} />}
      {!car && !failed && (
        <div style={{ textAlign: 'center', padding: 48 }}>
          <Spin />
        </div>
      )}
      {car && car.compartments.length === 0 && <Empty description={t('tankInfo.noCompartments')} />}
      {car && car.compartments.length > 0 && (
        <>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {car.groupName} · {t('tankInfo.registered', { n: car.compartments.filter((c) => !c.outside).length })}
          </Typography.Paragraph>
          <Tabs
            activeKey={tab}
            onChange={setTab}
            items={drafts.map((d) => ({
              key: String(d.no),
              label: (
                <span data-testid={`comp-tab-${d.no}`}>
                  {t('tankInfo.compartmentN', { no: d.no })}
                  {d.keep && problems(d).length > 0 && <Tag color="red" style={{ marginLeft: 6 }}>!</Tag>}
                  {!d.keep && <Tag style={{ marginLeft: 6 }}>{t('tankInfo.notKept')}</Tag>}
                </span>
              ),
              children: <CompartmentPane d={d} canEdit={canEdit} carId={carId} stored={initial.find((i) => i.no === d.no)} update={(p) => update(d.no, p)} setKeep={(keep) => setDrafts((ds) => ds.map((x) => (x.no === d.no ? { ...x, keep } : x)))} />,
            }))}
          />
        </>
      )}
    </Drawer>
  );
}

function CompartmentPane({
  d,
  canEdit,
  carId,
  stored,
  update,
  setKeep,
}: {
  d: CompDraft;
  canEdit: boolean;
  carId: number;
  stored?: CompDraft;
  update: (p: Partial<CompDraft>) => void;
  setKeep: (keep: boolean) => void;
}) {
  const { t } = useTranslation();
  const ps = problems(d);
  const err = (f: string) => ps.find((p) => p.field === f);
  const help = (f: string) => {
    const p = err(f);
    return p ? t(p.key, p.values) : undefined;
  };
  const ro = !canEdit;
  const tableDirty = JSON.stringify(stored?.rows) !== JSON.stringify(d.rows);
  return (
    <div data-testid={`comp-pane-${d.no}`}>
      {d.outside && <Alert type="warning" showIcon style={{ marginBottom: 8 }} message={t('tankInfo.outsideWarning', { no: d.no })} />}
      {!d.keep && !d.outside && <Alert type="info" showIcon style={{ marginBottom: 8 }} message={t('tankInfo.notKeptHint')} />}
      <Form layout="inline" className="tw-comp-form" colon={false}>
        <Form.Item label={t('tankInfo.product')}>
          <Select style={{ width: 130 }} disabled={ro} value={d.product} onChange={(v) => update({ product: v })} options={PRODUCTS.map((p) => ({ value: p, label: t(`tankInfo.productName.${p}`) }))} />
        </Form.Item>
        <Form.Item label={t('tankInfo.capacity')} validateStatus={err('capacity') ? 'error' : undefined} help={help('capacity')}>
          <InputNumber style={{ width: 120 }} disabled={ro} min={0} value={d.capacity} onChange={(v) => update({ capacity: v })} addonAfter="L" />
        </Form.Item>
        <Form.Item label={t('tankInfo.height')} validateStatus={err('height') ? 'error' : undefined} help={help('height')}>
          <InputNumber style={{ width: 110 }} disabled={ro} min={0} value={d.height} onChange={(v) => update({ height: v })} addonAfter="mm" />
        </Form.Item>
        <Form.Item label={t('tankInfo.probeType')} validateStatus={err('probeType') ? 'error' : undefined} help={help('probeType')}>
          <Input style={{ width: 120 }} disabled={ro} value={d.probeType} placeholder={t('tankInfo.probeTypeHint')} onChange={(e) => update({ probeType: e.target.value })} />
        </Form.Item>
        <Form.Item label={t('tankInfo.probeOffset')} validateStatus={err('probeOffset') ? 'error' : undefined} help={help('probeOffset')} tooltip={t('tankInfo.probeOffsetTip')}>
          <InputNumber style={{ width: 110 }} disabled={ro} value={d.probeOffset} onChange={(v) => update({ probeOffset: v })} addonAfter="mm" data-testid="probe-offset" />
        </Form.Item>
        <Form.Item label={t('tankInfo.density20')} validateStatus={err('density20') ? 'error' : undefined} help={help('density20')} tooltip={t('tankInfo.densityTip')}>
          <InputNumber style={{ width: 110 }} disabled={ro} min={0} value={d.density20} onChange={(v) => update({ density20: v })} />
        </Form.Item>
        {canEdit && d.keep && !d.outside && (
          <Form.Item>
            <Checkbox checked={false} onChange={() => setKeep(false)}>
              {t('tankInfo.dropCompartment')}
            </Checkbox>
          </Form.Item>
        )}
      </Form>
      <StrapEditor
        rows={d.rows}
        readOnly={ro}
        onChange={(rows) => update({ rows })}
        nominal={d.capacity}
        exportRef={stored?.saved && (stored?.rows.length ?? 0) > 0 ? { carId, no: d.no } : undefined}
        dirty={tableDirty}
      />
    </div>
  );
}
