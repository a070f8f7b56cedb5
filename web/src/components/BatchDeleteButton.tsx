import { DeleteOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import type { Key, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthButton } from './AuthButton';
import { confirmDelete } from './confirmDelete';

export interface BatchDeleteButtonProps {
  /** The selected row keys (record ids). The button is disabled while none is selected. */
  ids: Key[];
  /** The delete call for those ids (it should not show its own warning). */
  remove: (ids: number[]) => Promise<unknown>;
  /** After a successful delete: usually clear the selection and reload. */
  onDone: () => void;
  /** Button text; defaults to 删除. */
  children?: ReactNode;
}

/** A list page's toolbar "delete selected" button: gated by the page's `delete` button permission,
 *  asks first and reports as the spec's delete helper does (confirmDelete). */
export function BatchDeleteButton({ ids, remove, onDone, children }: BatchDeleteButtonProps) {
  const api = App.useApp();
  const { t } = useTranslation();
  return (
    <AuthButton code="delete">
      <Button
        danger
        icon={<DeleteOutlined />}
        disabled={!ids.length}
        onClick={() => confirmDelete(api, { run: () => remove(ids.map(Number)), onDone })}
      >
        {children ?? t('common.delete')}
      </Button>
    </AuthButton>
  );
}
