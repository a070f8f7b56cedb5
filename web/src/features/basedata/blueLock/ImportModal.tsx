import { InboxOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Table, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lockImport, lockImportPreview, type ImportResult, type SheetRow } from './api';

/** Import of a lock list (xlsx): preview with row errors; nothing is saved while a row is wrong. */
export function ImportModal({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<ImportResult>();
  const [busy, setBusy] = useState(false);
  const send = async (f: File, save: boolean) => {
    setBusy(true);
    try {
      const res = await (save ? lockImport(f) : lockImportPreview(f));
      setPreview(res);
      if (res.saved > 0) {
        void message.success(t('locks.imported', { n: res.saved }));
        onSaved();
        onClose();
      }
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };
  const ok = !!file && !!preview && preview.errors.length === 0 && preview.rows.length > 0;
  return (
    <Modal
      open
      title={t('locks.importTitle')}
      width={960}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" disabled={!ok} loading={busy} onClick={() => file && void send(file, true)}>
            {t('locks.importConfirm', { n: preview?.rows.length ?? 0 })}
          </Button>
        </Space>
      }
    >
      <Upload.Dragger
        accept=".xlsx"
        maxCount={1}
        showUploadList={false}
        beforeUpload={(f) => {
          setFile(f);
          setPreview(undefined);
          void send(f, false);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>{file ? file.name : t('locks.importDrop')}</p>
        <p className="ant-upload-hint">{t('locks.importHint')}</p>
      </Upload.Dragger>
      {preview && preview.errors.length > 0 && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          message={t('locks.importErrors', { n: preview.errors.length })}
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
            { title: t('locks.row'), dataIndex: 'row', width: 60 },
            { title: t('locks.serial'), dataIndex: 'serial', width: 190 },
            { title: t('locks.kind'), dataIndex: 'kind', width: 130, render: (k: number) => (k ? t(`locks.kindName.${k}`) : '—') },
            { title: t('locks.model'), dataIndex: 'model' },
            { title: t('locks.firmware'), dataIndex: 'firmware' },
            { title: t('locks.group'), dataIndex: 'group' },
            { title: t('locks.remark'), dataIndex: 'remark' },
          ]}
        />
      )}
    </Modal>
  );
}
