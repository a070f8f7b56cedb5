import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportFile, type ExportRequest } from '../../../api/export';
import { AuthButton } from '../../../components/AuthButton';

/** The page's export button (its -export button code): downloads request() as xlsx; disabled without one. */
export function ExportButton({ request, testId }: { request: (() => ExportRequest) | null; testId: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <AuthButton code="export">
      <Button
        icon={<DownloadOutlined />}
        loading={busy}
        disabled={!request}
        data-testid={testId}
        onClick={async () => {
          if (!request) return;
          setBusy(true);
          try {
            await exportFile(request());
          } finally {
            setBusy(false);
          }
        }}
      >
        {t('common.export')}
      </Button>
    </AuthButton>
  );
}
