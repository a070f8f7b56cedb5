import { Alert, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { viewCarPassword, type CarPassword, type Revealed } from '../../../api/carPassword';

/**
 * View the password: first says the view is recorded (with an optional reason), then shows the password large
 * with a copy button. Every confirm is one viewing record on the server.
 */
export function ViewPasswordModal({ car, onClose }: { car: CarPassword; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [shown, setShown] = useState<Revealed | null>(null);

  const reveal = async () => {
    setBusy(true);
    setError('');
    try {
      setShown(await viewCarPassword(car.carId, reason.trim() || undefined));
    } catch (e) {
      setError((e as Error).message || t('common.requestFailed'));
    } finally {
      setBusy(false);
    }
  };

  if (shown) {
    // its own dialog (key), not the confirm's with new props: the confirm's OK button was loading, and
    // its loading icon could linger on the reused button as the close button's
    return (
      <Modal key="shown" open title={t('carPassword.viewTitle', { plate: car.plate })} onCancel={onClose} onOk={onClose} cancelButtonProps={{ style: { display: 'none' } }} okText={t('common.close')} destroyOnHidden>
        <div style={{ textAlign: 'center', padding: '12px 0' }}>
          <Typography.Text copyable={{ text: shown.password, tooltips: [t('carPassword.copy'), t('carPassword.copied')] }} data-testid="revealed-password" style={{ fontSize: 40, fontFamily: 'monospace', letterSpacing: 8 }}>
            {shown.password}
          </Typography.Text>
        </div>
        {shown.syncState !== 'ok' && <Alert type="warning" showIcon message={t('carPassword.notSyncedWarning')} />}
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('carPassword.recordedAt', { time: shown.viewedAt })}
        </Typography.Paragraph>
      </Modal>
    );
  }
  return (
    <Modal key="confirm" open title={t('carPassword.confirmTitle')} onCancel={onClose} onOk={() => void reveal()} okText={t('carPassword.confirmView')} confirmLoading={busy} destroyOnHidden>
      <Alert type="info" showIcon message={t('carPassword.confirmText', { plate: car.plate })} style={{ marginBottom: 12 }} />
      <Input.TextArea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} rows={2} placeholder={t('carPassword.reasonPlaceholder')} aria-label={t('carPassword.reason')} />
      {error && <Alert type="error" showIcon message={error} style={{ marginTop: 12 }} />}
    </Modal>
  );
}
