import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Table, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportFile } from '../../../api/export';
import { importWaybills, TEMPLATE_URL, type ImportResult } from './api';

/** Import from xlsx: the file is previewed first (every row with its error); it is saved only when no row is wrong. */
export function ImportModal({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState(false);

  const read = async (f: File) => {
    setFile(f);
    setPreview(null);
    setBusy(true);
    try {
      setPreview(await importWaybills(f, false));
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
      const res = await importWaybills(file, true);
      if (res.errors > 0) {
        setPreview(res);
        return;
      }
      void message.success(t('waybillBills.import.saved', { n: res.created }));
      onSaved();
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };
  const ok = preview && preview.errors === 0 && preview.rows.length > 0;
  return (
    <Modal
      open
      width={900}
      title={t('waybillBills.import.title')}
      onCancel={onClose}
      maskClosable={false}
      okText={t('waybillBills.import.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !ok, loading: busy }}
      onOk={() => void save()}
    >
      <Space style={{ marginBottom: 12 }}>
        <Upload accept=".xlsx" showUploadList={false} beforeUpload={(f) => (void read(f), false)}>
          <Button icon={<UploadOutlined />} loading={busy}>
            {t('waybillBills.import.choose')}
          </Button>
        </Upload>
        <Button icon={<DownloadOutlined />} onClick={() => void exportFile({ url: TEMPLATE_URL, method: 'POST', data: {} }).catch(() => undefined)}>
          {t('waybillBills.import.template')}
        </Button>
        {file && <span>{file.name}</span>}
      </Space>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('waybillBills.import.hint')} />
      {preview && preview.errors > 0 && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={t('waybillBills.import.hasErrors', { n: preview.errors })} />}
      {preview && (
        <Table
          size="small"
          rowKey="row"
          pagination={{ pageSize: 8 }}
          dataSource={preview.rows}
          columns={[
            { title: t('waybillBills.import.row'), dataIndex: 'row', width: 70 },
            { title: t('waybillBills.plate'), dataIndex: 'plate', width: 120 },
            { title: t('waybillBills.depot'), dataIndex: 'depot', width: 160, ellipsis: true },
            { title: t('waybillBills.destinations'), dataIndex: 'destinations', ellipsis: true },
            { title: t('waybillBills.plannedL'), dataIndex: 'plannedL', width: 110 },
            {
              title: t('waybillBills.import.result'),
              dataIndex: 'error',
              render: (e: string) => (e ? <span style={{ color: '#cf1322' }}>{e}</span> : t('waybillBills.import.rowOk')),
            },
          ]}
        />
      )}
    </Modal>
  );
}
