import { Alert, App, Form, Input, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sealCheck, type LoadWaybill, type SealCheckResult } from '../../../api/waybillLoads';

/** 铅封核对 at unsealing: the operator enters the numbers found on each sealed compartment. */
export function SealCheckModal({ waybills, onClose, onDone }: { waybills: LoadWaybill[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [waybillId, setWaybillId] = useState<number>();
  const [found, setFound] = useState<Record<number, string>>({});
  const [result, setResult] = useState<SealCheckResult>();
  const [busy, setBusy] = useState(false);
  const wb = waybills.find((w) => w.id === waybillId);
  const submit = async () => {
    if (!wb) return;
    setBusy(true);
    try {
      const res = await sealCheck(wb.id, wb.seals.map((s) => ({ compartment: s.compartment, foundNo: found[s.compartment] ?? '' })));
      setResult(res);
      if (res.ok) void message.success(t('loadRecord.sealOk'));
      onDone();
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t('loadRecord.sealCheckTitle')} onCancel={onClose} onOk={() => void submit()} okText={t('common.submit')} okButtonProps={{ disabled: !wb, loading: busy }} width={620}>
      {waybills.length === 0 && <Alert type="info" showIcon message={t('loadRecord.sealNone')} />}
      <Form layout="vertical">
        <Form.Item label={t('loadRecord.waybill')}>
          <Select
            data-testid="seal-waybill"
            value={waybillId}
            onChange={(v) => {
              setWaybillId(v);
              setFound({});
              setResult(undefined);
            }}
            options={waybills.map((w) => ({ value: w.id, label: `${w.no} · ${w.plate} · ${t(`waybillCommon.state.${w.state}`)}` }))}
            placeholder={t('loadRecord.waybillPick')}
          />
        </Form.Item>
        {wb && (
          <Space direction="vertical" style={{ width: '100%' }}>
            {wb.seals.map((s) => (
              <Form.Item key={s.compartment} label={t('loadRecord.sealFound', { no: s.compartment })} style={{ marginBottom: 4 }}>
                <Input aria-label={t('loadRecord.sealFound', { no: s.compartment })} value={found[s.compartment] ?? ''} maxLength={32} onChange={(e) => setFound({ ...found, [s.compartment]: e.target.value })} />
              </Form.Item>
            ))}
          </Space>
        )}
      </Form>
      {result && !result.ok && (
        <Alert
          type="error"
          showIcon
          message={t('loadRecord.sealMismatch')}
          description={result.mismatches.map((m) => (
            <div key={m.compartment}>{t('loadRecord.sealMismatchLine', { no: m.compartment, expected: m.expected, found: m.found })}</div>
          ))}
        />
      )}
    </Modal>
  );
}
