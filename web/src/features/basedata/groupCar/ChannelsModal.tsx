import { useQuery } from '@tanstack/react-query';
import { App, Button, Input, InputNumber, Modal, Switch, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { carChannels, saveCarChannels, type Car, type VideoChannel } from '../../../api/fleet';

type Row = VideoChannel & { key: number };

/** Video channels of one vehicle: channels 1..N with name and enabled; save replaces them all. */
export function ChannelsModal({ car, onClose }: { car: Car; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const q = useQuery({ queryKey: ['carChannels', car.id], queryFn: () => carChannels(car.id), gcTime: 0 });
  const [rows, setRows] = useState<Row[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (q.data) setRows(q.data.map((c, i) => ({ ...c, key: i })));
  }, [q.data]);

  const patch = (i: number, p: Partial<VideoChannel>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...p } : r)));
  const addRow = () => setRows((rs) => (rs.length >= 32 ? rs : [...rs, { key: Math.max(-1, ...rs.map((r) => r.key)) + 1, channelNo: Math.min(32, Math.max(0, ...rs.map((r) => r.channelNo)) + 1), name: '', enabled: true }]));

  const save = async () => {
    setSaving(true);
    try {
      await saveCarChannels(car.id, rows.map(({ key: _k, ...r }) => ({ ...r, name: r.name.trim() })));
      void message.success(t('common.operationSuccess'));
      onClose();
    } catch {
      // server message (e.g. 视频通道 N 重复) already shown
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t('car.channelsTitle', { plate: car.plate })}
      width={560}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Table<Row>
        size="small"
        rowKey="key"
        loading={q.isLoading}
        dataSource={rows}
        pagination={false}
        columns={[
          {
            title: t('car.channelNo'),
            dataIndex: 'channelNo',
            width: 100,
            render: (v: number, _r, i) => <InputNumber size="small" min={1} max={32} precision={0} value={v} onChange={(x) => patch(i, { channelNo: x ?? 1 })} />,
          },
          {
            title: t('car.channelName'),
            dataIndex: 'name',
            render: (v: string, _r, i) => <Input size="small" maxLength={32} value={v} aria-label={`${t('car.channelName')} ${i + 1}`} onChange={(e) => patch(i, { name: e.target.value })} />,
          },
          {
            title: t('car.channelEnabled'),
            dataIndex: 'enabled',
            width: 80,
            render: (v: boolean, _r, i) => <Switch size="small" checked={v} onChange={(x) => patch(i, { enabled: x })} />,
          },
          {
            title: t('common.actions'),
            key: 'x',
            width: 70,
            render: (_v, _r, i) => (
              <Button type="link" size="small" danger onClick={() => setRows((rs) => rs.filter((_x, j) => j !== i))}>
                {t('common.delete')}
              </Button>
            ),
          },
        ]}
      />
      <Button type="dashed" block style={{ marginTop: 8 }} disabled={rows.length >= 32} onClick={addRow}>
        {t('car.addChannel')}
      </Button>
    </Modal>
  );
}
