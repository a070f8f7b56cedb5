import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { loadImport, loadImportPreview, type ImportResult, type SheetRow } from '../../../api/waybillLoads';
import { XlsxImportModal } from '../../../components/XlsxImportModal';

/** Import of the depot's loading tickets: preview with row errors; nothing is saved while a row is wrong. */
export function ImportModal({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  return (
    <XlsxImportModal<SheetRow, ImportResult>
      title={t('loadRecord.importTitle')}
      width={1100}
      preview={loadImportPreview}
      save={loadImport}
      drop={t('loadRecord.importDrop')}
      hint={t('loadRecord.importHint')}
      errorsTitle={(n) => t('loadRecord.importErrors', { n })}
      confirm={(p) => t('loadRecord.importConfirm', { n: p?.records ?? 0 })}
      imported={(n) => t('loadRecord.imported', { n })}
      onClose={onClose}
      onSaved={onSaved}
      rowKey="row"
      columns={[
        { title: t('loadRecord.row'), dataIndex: 'row', width: 60 },
        { title: t('loadRecord.waybillNo'), dataIndex: 'waybillNo', width: 190 },
        { title: t('loadRecord.plate'), dataIndex: 'plate', width: 110 },
        { title: t('loadRecord.ticketNo'), dataIndex: 'ticketNo', width: 130 },
        { title: t('loadRecord.loadedAt'), dataIndex: 'loadedAt', width: 150, render: (v: number) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '') },
        { title: t('loadRecord.compartmentShort'), dataIndex: 'compartment', width: 60 },
        { title: t('loadRecord.product'), dataIndex: 'productName', render: (v: string, r) => v || r.product },
        { title: t('loadRecord.vt'), dataIndex: 'vtL', align: 'right' },
        { title: t('loadRecord.temp'), dataIndex: 'tempC', align: 'right' },
        { title: 'V20', dataIndex: 'v20L', align: 'right', render: (v: number) => (v ? v.toFixed(1) : '') },
        { title: t('loadRecord.mass'), dataIndex: 'massT', align: 'right', render: (v: number) => (v ? v.toFixed(3) : '') },
        { title: t('loadRecord.sealNo'), dataIndex: 'sealNo' },
      ]}
    />
  );
}
