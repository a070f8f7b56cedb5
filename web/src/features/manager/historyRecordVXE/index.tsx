import { AutoComplete, Form, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { rawExport, rawHistoryRecord, type RawFrame, type RawQuery } from '../../../api/history';
import { ListPage } from '../../../components/ListPage';
import { historyListProps, type TargetFilters } from '../history/filters';
import { COMMON_MSG_IDS, normalizeMsgId } from '../history/format';
import { HexText, HistoryFields } from '../history/HistoryFields';
import { DecodedView } from './DecodedView';

type RawFilters = TargetFilters & { msgId?: string };

/** The message id filter: a list of common ids with their names, or any id typed in hex. */
function MsgIdInput(props: { value?: string; onChange?: (v: string) => void }) {
  const { t } = useTranslation();
  return (
    <AutoComplete
      {...props}
      allowClear
      style={{ width: 220 }}
      placeholder={t('rawData.msgIdPlaceholder')}
      data-testid="msgid-input"
      options={COMMON_MSG_IDS.map((id) => ({ value: id, label: `${id} ${t(`rawData.msg.${id}`)}` }))}
      filterOption={(input, o) => !!o && String(o.label).toLowerCase().includes(input.toLowerCase())}
    />
  );
}

/** 原始数据: a vehicle's or terminal's frames as they crossed the wire, each decoded again when expanded. */
export default function HistoryRecordPage() {
  const { t } = useTranslation();
  return (
    <ListPage<RawFrame, RawFilters>
      queryKey="historyRecordVXE"
      rowKey="id"
      fetch={(q) => rawHistoryRecord(q as RawQuery)}
      {...historyListProps<RawFilters>(t('history.pickVehicle'), {
        convert: (f) => (f.msgId ? { ...f, msgId: normalizeMsgId(f.msgId) ?? f.msgId } : f),
      })}
      exportRequest={rawExport}
      filters={
        <>
          <HistoryFields />
          <Form.Item name="msgId" label={t('rawData.msgId')} rules={[{ validator: (_, v: string) => (normalizeMsgId(v) === null ? Promise.reject(new Error(t('rawData.msgIdInvalid'))) : Promise.resolve()) }]}>
            <MsgIdInput />
          </Form.Item>
        </>
      }
      tableProps={{
        scroll: { x: 1200 },
        expandable: { expandedRowRender: (r) => <DecodedView decoded={r.decoded} />, columnWidth: 40 },
      }}
      columns={[
        { title: t('rawData.time'), dataIndex: 'time', key: 'time', width: 170 },
        { title: t('history.plate'), dataIndex: 'plate', key: 'plate', width: 120, render: (v: string) => v || '—' },
        { title: t('rawData.phone'), dataIndex: 'phone', key: 'phone', width: 130 },
        {
          title: t('rawData.message'),
          dataIndex: 'msgId',
          key: 'msgId',
          width: 200,
          render: (id: string, r) => (
            <span>
              <span style={{ fontFamily: 'monospace' }}>{id}</span> {r.msgName || t(`rawData.msg.${id}`, { defaultValue: '' })}
            </span>
          ),
        },
        { title: t('rawData.serial'), dataIndex: 'serial', key: 'serial', width: 80 },
        {
          title: t('rawData.direction'),
          dataIndex: 'direction',
          key: 'direction',
          width: 80,
          render: (d: RawFrame['direction']) => <Tag color={d === 'up' ? 'green' : 'blue'}>{t(`rawData.${d}`)}</Tag>,
        },
        {
          title: t('rawData.hex'),
          dataIndex: 'hex',
          key: 'hex',
          render: (hex: string, r) => (
            <span>
              {r.decoded?.error && (
                <Tag color="red" data-testid="frame-error">
                  {t('rawData.error')}
                </Tag>
              )}
              <HexText hex={hex} width={360} />
            </span>
          ),
        },
      ]}
    />
  );
}
