import { InboxOutlined } from '@ant-design/icons';
import { Form, Input, Select, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { KINDS, MAX_PACKAGE_MB, packageUpload, sizeText } from './api';

interface Values {
  kind: number;
  manufacturer: string;
  version: string;
  remark?: string;
}

/** Upload of a package: type, manufacturer ID, version and the file (checksums computed by the server). */
export function UploadModal({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [file, setFile] = useState<File>();
  const [fileError, setFileError] = useState('');
  const save = async (v: Values) => {
    if (!file) {
      setFileError(t('firmware.fileRequired'));
      throw new Error('no file');
    }
    const fd = new FormData();
    fd.append('kind', String(v.kind));
    fd.append('manufacturer', v.manufacturer);
    fd.append('version', v.version);
    fd.append('remark', v.remark ?? '');
    fd.append('file', file, file.name);
    return packageUpload(fd);
  };
  return (
    <FormModal form={form} name="upgradePack" title={t('firmware.uploadTitle')} isAdd save={save} onClose={onClose} onSaved={onSaved} labelWidth={110}>
      <Form.Item name="kind" label={t('firmware.kind')} initialValue={0} rules={[{ required: true }]}>
        <Select options={KINDS.map((k) => ({ value: k, label: t(`firmware.kindName.${k}`) }))} />
      </Form.Item>
      <Form.Item
        name="manufacturer"
        label={t('firmware.manufacturer')}
        extra={t('firmware.manufacturerHint')}
        rules={[{ required: true, pattern: /^[A-Za-z0-9]{1,5}$/, message: t('firmware.manufacturerRule') }]}
      >
        <Input maxLength={5} />
      </Form.Item>
      <Form.Item name="version" label={t('firmware.version')} rules={[{ required: true, whitespace: true, max: 64 }]}>
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item label={t('firmware.file')} required validateStatus={fileError ? 'error' : undefined} help={fileError || t('firmware.fileHint', { mb: MAX_PACKAGE_MB })}>
        <Upload.Dragger
          maxCount={1}
          showUploadList={false}
          beforeUpload={(f) => {
            if (f.size > MAX_PACKAGE_MB * 1024 * 1024) {
              setFileError(t('firmware.fileTooLarge', { mb: MAX_PACKAGE_MB }));
              setFile(undefined);
            } else if (f.size === 0) {
              setFileError(t('firmware.fileRequired'));
              setFile(undefined);
            } else {
              setFileError('');
              setFile(f);
            }
            return false;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p data-testid="upload-file-name">{file ? `${file.name} · ${sizeText(file.size)}` : t('firmware.fileDrop')}</p>
        </Upload.Dragger>
      </Form.Item>
      <Form.Item name="remark" label={t('firmware.remark')} rules={[{ max: 255 }]}>
        <Input.TextArea rows={2} maxLength={255} />
      </Form.Item>
    </FormModal>
  );
}
