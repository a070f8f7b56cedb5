import { Alert, Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordUpdate } from '../../api/auth';
import { errorMsg, success } from '../../api/feedback';
import { signOut } from '../../app/session';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/** Change password (spec §5, §8): code ≠ 1 → server message as error; success → message, then log out. */
export default function RePasswordPage() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  const onFinish = async (v: Values) => {
    setBusy(true);
    try {
      const body = await passwordUpdate({ oldPassword: v.oldPassword, newPassword: v.newPassword });
      if (body.code !== 1) {
        errorMsg(body.message || t('rePassword.failed'));
        return;
      }
      success(body.message || t('common.operationSuccess'));
      window.setTimeout(() => void signOut(), 1200);
    } catch {
      errorMsg(t('rePassword.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="tw-page">
      <Card title={t('menu.rePassword')} variant="borderless" style={{ maxWidth: 560 }}>
        <Alert type="info" showIcon message={t('rePassword.hint')} style={{ marginBottom: 24 }} />
        <Form<Values> layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Form.Item name="oldPassword" label={t('rePassword.oldPassword')} rules={[{ required: true, message: t('rePassword.oldRequired') }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            name="newPassword"
            label={t('rePassword.newPassword')}
            rules={[
              { required: true, message: t('rePassword.newRequired') },
              { min: 6, message: t('rePassword.minLength') },
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('rePassword.confirmPassword')}
            dependencies={['newPassword']}
            rules={[
              { required: true, message: t('rePassword.confirmRequired') },
              ({ getFieldValue }) => ({
                validator: (_, value) =>
                  !value || getFieldValue('newPassword') === value ? Promise.resolve() : Promise.reject(new Error(t('rePassword.mismatch'))),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy}>
            {t('common.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
