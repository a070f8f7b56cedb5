import { InboxOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Table, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { employeeImport, employeeImportPreview, ROLE_NAMES, rolesOf, type ImportResult, type SheetRow } from '../../../api/staff';

/** Import of an employee sheet (xlsx): preview with row errors; nothing is saved while a row is wrong. */
export function ImportModal({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<ImportResult>();
  const [busy, setBusy] = useState(false);
  const send = async (f: File, save: boolean) => {
    setBusy(true);
    try {
      const res = await (save ? employeeImport(f) : employeeImportPreview(f));
      setPreview(res);
      if (res.saved > 0) {
        void message.success(t('staff.imported', { n: res.saved }));
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
      title={t('staff.importTitle')}
      width={960}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" disabled={!ok} loading={busy} onClick={() => file && void send(file, true)}>
            {t('staff.importConfirm', { n: preview?.rows.length ?? 0 })}
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
        <p>{file ? file.name : t('staff.importDrop')}</p>
        <p className="ant-upload-hint">{t('staff.importHint')}</p>
      </Upload.Dragger>
      {preview && preview.errors.length > 0 && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          message={t('staff.importErrors', { n: preview.errors.length })}
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
            { title: t('staff.row'), dataIndex: 'row', width: 60 },
            { title: t('staff.name'), dataIndex: 'name', width: 120 },
            { title: t('staff.idCard'), dataIndex: 'idCard', width: 190 },
            { title: t('staff.phone'), dataIndex: 'phone', width: 130 },
            {
              title: t('staff.roles'),
              dataIndex: 'roles',
              render: (r: number) => (r > 0 ? rolesOf(r).map((b) => t(`staff.role.${ROLE_NAMES[b]}`)).join(t('common.listSeparator')) : '—'),
            },
            { title: t('staff.group'), dataIndex: 'group' },
          ]}
        />
      )}
    </Modal>
  );
}
