import { Alert, Form, Input, Modal, Radio, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isPassword, resendCarPassword, setCarPassword, type CarPassword, type SetResult } from '../../../api/carPassword';

type Mode = 'enter' | 'generate';

const ALERT_TYPE = { ok: 'success', pending: 'warning', failed: 'error' } as const;

/**
 * Set or reset the password: six digits typed in, or generated on the server; or (resend) the stored password sent
 * again. The password is stored whatever the terminal does; the result says whether it has it.
 */
export function SetPasswordModal({ car, resend, onClose, onSaved }: { car: CarPassword; resend: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ mode: Mode; password?: string }>();
  const mode = Form.useWatch('mode', form) ?? 'enter';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [result, setResult] = useState<SetResult | null>(null);

  const send = async (password: string) => {
    setBusy(true);
    setError('');
    try {
      setResult(resend ? await resendCarPassword(car.carId) : await setCarPassword(car.carId, password));
      onSaved();
    } catch (e) {
      setError((e as Error).message || t('common.requestFailed'));
    } finally {
      setBusy(false);
    }
  };

  // a resend has nothing to ask: it goes at once
  useEffect(() => {
    if (resend) void send('');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resend]);

  const title = resend ? t('carPassword.resendTitle', { plate: car.plate }) : t(car.passwordSet ? 'carPassword.resetTitle' : 'carPassword.setTitle', { plate: car.plate });
  if (result || resend) {
    // Its own dialog (key), never the form's with new props, and its Close button never loading: the form's
    // Save button was loading, and antd ends a button's spinner with a CSS transition; on a busy machine that
    // transition could be missed and the spinner (named "loading") stayed on the reused button, so Close
    // read "loading 关闭" for good (the car-password end-to-end test could not find 关闭 under load).
    // While the resend is on its way the Spin says so and Close is disabled.
    return (
      <Modal key="result" open title={title} onCancel={onClose} onOk={onClose} okText={t('common.close')} cancelButtonProps={{ style: { display: 'none' } }} okButtonProps={{ disabled: busy }} destroyOnHidden>
        {busy && <Spin tip={t('carPassword.sending')}><div style={{ height: 60 }} /></Spin>}
        {result && <Alert data-testid="set-result" type={ALERT_TYPE[result.syncState || 'pending']} showIcon message={result.syncText} description={result.message} />}
        {result?.generated && <Alert type="info" showIcon style={{ marginTop: 12 }} message={t('carPassword.generatedHint')} />}
        {error && <Alert type="error" showIcon message={error} />}
      </Modal>
    );
  }
  return (
    <Modal key="form" open title={title} onCancel={onClose} onOk={() => form.submit()} okText={t('carPassword.save')} confirmLoading={busy} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ mode: 'enter' }} onFinish={(v) => void send(v.mode === 'generate' ? '' : (v.password ?? '').trim())}>
        <Form.Item name="mode">
          <Radio.Group
            options={[
              { value: 'enter', label: t('carPassword.modeEnter') },
              { value: 'generate', label: t('carPassword.modeGenerate') },
            ]}
          />
        </Form.Item>
        {mode === 'enter' && (
          <Form.Item
            name="password"
            label={t('carPassword.newPassword')}
            rules={[
              { required: true, message: t('carPassword.passwordRequired') },
              { validator: (_, v: string | undefined) => (!v || isPassword(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('carPassword.passwordFormat')))) },
            ]}
          >
            <Input inputMode="numeric" maxLength={6} autoComplete="off" placeholder="000000" style={{ width: 180, fontFamily: 'monospace', letterSpacing: 4 }} />
          </Form.Item>
        )}
        {mode === 'generate' && <Alert type="info" showIcon message={t('carPassword.generateHint')} />}
        <Alert type="warning" showIcon style={{ marginTop: 12 }} message={t('carPassword.sendHint')} />
        {error && <Alert type="error" showIcon message={error} style={{ marginTop: 12 }} />}
      </Form>
    </Modal>
  );
}
