import { InboxOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Table, Upload } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadImport, loadImportPreview, type ImportResult, type SheetRow } from '../../../api/waybillLoads';

/** Import of the depot's loading tickets: preview with row errors; nothing is saved while a row is wrong. */
export function ImportModal({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<ImportResult>();
  const [busy, setBusy] = useState(false);
  const read = async (f: File) => {
    setFile(f);
    setPreview(undefined);
    setBusy(true);
    try {
      setPreview(await loadImportPreview(f));
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    if (!file) return;
    setBusy(true);
    try {
      const res = await loadImport(file);
      setPreview(res);
      if (res.saved > 0) {
        void message.success(t('loadRecord.imported', { n: res.saved }));
        onSaved();
      }
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };
  const ok = !!preview && preview.errors.length === 0 && preview.rows.length > 0;
  return (
    <Modal
      open
      title={t('loadRecord.importTitle')}
      width={1100}
      onCancel={onClose}
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" disabled={!ok} loading={busy} onClick={() => void save()}>
            {t('loadRecord.importConfirm', { n: preview?.records ?? 0 })}
          </Button>
        </Space>
      }
    >
      <Upload.Dragger accept=".xlsx" maxCount={1} showUploadList={false} beforeUpload={(f) => (void read(f), false)}>
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>{file ? file.name : t('loadRecord.importDrop')}</p>
        <p className="ant-upload-hint">{t('loadRecord.importHint')}</p>
      </Upload.Dragger>
      {preview && preview.errors.length > 0 && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          message={t('loadRecord.importErrors', { n: preview.errors.length })}
          description={
            <ul style={{ margin: 0, paddingLeft: 18 }} data-testid="import-errors">
              {preview.errors.slice(0, 50).map((e) => (
                <li key={`${e.row}-${e.message}`}>{e.message}</li>
              ))}
            </ul>
          }
        />
      )}
      {preview && preview.rows.length > 0 && (
        <Table<SheetRow>
          style={{ marginTop: 12 }}
          size="small"
          rowKey="row"
          pagination={{ pageSize: 8 }}
          dataSource={preview.rows}
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
      )}
    </Modal>
  );
}
