import { useTranslation } from 'react-i18next';
import { XlsxImportModal } from '../../../components/XlsxImportModal';
import { lockImport, lockImportPreview, type ImportResult, type SheetRow } from './api';

/** Import of a lock list (xlsx): preview with row errors; nothing is saved while a row is wrong. */
export function ImportModal({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  return (
    <XlsxImportModal<SheetRow, ImportResult>
      title={t('locks.importTitle')}
      width={960}
      maskClosable={false}
      closeOnSaved
      preview={lockImportPreview}
      save={lockImport}
      drop={t('locks.importDrop')}
      hint={t('locks.importHint')}
      errorsTitle={(n) => t('locks.importErrors', { n })}
      confirm={(p) => t('locks.importConfirm', { n: p?.rows.length ?? 0 })}
      imported={(n) => t('locks.imported', { n })}
      onClose={onClose}
      onSaved={onSaved}
      rowKey="row"
      columns={[
        { title: t('locks.row'), dataIndex: 'row', width: 60 },
        { title: t('locks.serial'), dataIndex: 'serial', width: 190 },
        { title: t('locks.kind'), dataIndex: 'kind', width: 130, render: (k: number) => (k ? t(`locks.kindName.${k}`) : '—') },
        { title: t('locks.model'), dataIndex: 'model' },
        { title: t('locks.firmware'), dataIndex: 'firmware' },
        { title: t('locks.group'), dataIndex: 'group' },
        { title: t('locks.remark'), dataIndex: 'remark' },
      ]}
    />
  );
}
