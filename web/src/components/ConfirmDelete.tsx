import { App, Button } from 'antd';
import type { ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from './confirmDelete';

/** A delete button wired to the spec's confirm → call → '删除成功' / error modal flow. */
export function ConfirmDelete({
  run,
  onDone,
  binding,
  children,
  ...button
}: { run: () => Promise<unknown>; onDone?: () => void; binding?: boolean } & Omit<ButtonProps, 'onClick'>) {
  const api = App.useApp();
  const { t } = useTranslation();
  return (
    <Button danger type="link" size="small" {...button} onClick={() => confirmDelete(api, { run, onDone, binding })}>
      {children ?? t('common.delete')}
    </Button>
  );
}
