import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthButton } from '../../../components/AuthButton';

/** The page's export (its `export` button code): busy while the file is made. */
export function ExportButton({ run, disabled, testId }: { run: () => Promise<unknown>; disabled: boolean; testId: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <AuthButton code="export">
      <Button
        icon={<DownloadOutlined />}
        loading={busy}
        disabled={disabled}
        data-testid={testId}
        onClick={async () => {
          setBusy(true);
          try {
            await run();
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
