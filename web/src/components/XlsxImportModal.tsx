import { InboxOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Table, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What an xlsx import call answers: the rows read, the rows' errors and how many were saved (0 on a preview). */
export interface XlsxImportResult<Row> {
  rows: Row[];
  errors: { row: number; message: string }[];
  saved: number;
}

export interface XlsxImportModalProps<Row, Result extends XlsxImportResult<Row>> {
  title: ReactNode;
  width: number;
  /** the sheet's rows as the preview shows them */
  columns: ColumnsType<Row>;
  rowKey: keyof Row & string;
  /** reads the file without saving (called as soon as a file is dropped) */
  preview: (f: File) => Promise<Result>;
  /** saves the file; nothing is saved while a row is wrong */
  save: (f: File) => Promise<Result>;
  /** the texts: the drop zone, its hint, the errors' title, the confirm button, the success message */
  drop: ReactNode;
  hint: ReactNode;
  errorsTitle: (n: number) => ReactNode;
  confirm: (preview: Result | undefined) => ReactNode;
  imported: (n: number) => string;
  /** close the dialog once saved (otherwise onSaved decides) */
  closeOnSaved?: boolean;
  maskClosable?: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * The xlsx import dialog: drop a file, see the preview with every row's error, confirm to save. The
 * lock registry's and the load records' imports use it (each with its columns and texts).
 */
export function XlsxImportModal<Row extends object, Result extends XlsxImportResult<Row>>(p: XlsxImportModalProps<Row, Result>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<Result>();
  const [busy, setBusy] = useState(false);
  const send = async (f: File, save: boolean) => {
    setBusy(true);
    try {
      const res = await (save ? p.save(f) : p.preview(f));
      setPreview(res);
      if (save && res.saved > 0) {
        void message.success(p.imported(res.saved));
        p.onSaved();
        if (p.closeOnSaved) p.onClose();
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
      title={p.title}
      width={p.width}
      onCancel={p.onClose}
      maskClosable={p.maskClosable}
      footer={
        <Space>
          <Button onClick={p.onClose}>{t('common.cancel')}</Button>
          <Button type="primary" disabled={!ok} loading={busy} onClick={() => file && void send(file, true)}>
            {p.confirm(preview)}
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
        <p>{file ? file.name : p.drop}</p>
        <p className="ant-upload-hint">{p.hint}</p>
      </Upload.Dragger>
      {preview && preview.errors.length > 0 && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          message={p.errorsTitle(preview.errors.length)}
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
        <Table<Row> style={{ marginTop: 12 }} size="small" rowKey={p.rowKey} pagination={{ pageSize: 8 }} dataSource={preview.rows} columns={p.columns} />
      )}
    </Modal>
  );
}
