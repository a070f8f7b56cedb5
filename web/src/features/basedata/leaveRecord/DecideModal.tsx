import { App, Button, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCodes } from '../../../api/useCodes';
import { leaveDecide, type Leave } from '../../../api/staff';

/** Approve or reject a pending request with a comment (a rejection needs one). */
export function DecideModal({ leave, onClose, onDone }: { leave: Leave; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const kinds = useCodes('leaveKind');
  const { message } = App.useApp();
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const decide = async (approve: boolean) => {
    setBusy(true);
    try {
      await leaveDecide(leave.id, approve, comment.trim());
      void message.success(t(approve ? 'staff.approved' : 'staff.rejected'));
      onDone();
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('staff.decideTitle', { name: leave.employeeName })}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button danger loading={busy} disabled={!comment.trim()} onClick={() => void decide(false)} data-testid="leave-reject">
            {t('staff.reject')}
          </Button>
          <Button type="primary" loading={busy} onClick={() => void decide(true)} data-testid="leave-approve">
            {t('staff.approve')}
          </Button>
        </Space>
      }
    >
      <p>
        {kinds.label(leave.kind)} · {leave.from} — {leave.to} ({t('staff.daysN', { n: leave.days })})
      </p>
      {leave.reason && <p className="tw-muted">{leave.reason}</p>}
      <Input.TextArea rows={3} maxLength={200} placeholder={t('staff.commentHint')} value={comment} onChange={(e) => setComment(e.target.value)} data-testid="leave-comment" />
    </Modal>
  );
}
