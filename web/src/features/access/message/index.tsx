import { Badge, Button, Form, Input, Tabs, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { markRead, pageMessages, receivedMessages, type ReceivedMessage, type SentMessage, type SentQuery } from '../../../api/message';
import { ListPage } from '../../../components/ListPage';
import { TimeRangePicker, type TimeRangeValue } from '../../../components/TimeRangePicker';
import { SendForm } from './SendForm';

export type SentFilters = Omit<SentQuery, 'pageNum' | 'pageSize' | 'sortField' | 'sortOrder'>;

export function toSentFilters(values: Record<string, unknown>): SentFilters {
  const { time, ...rest } = values as SentFilters & { time?: TimeRangeValue };
  const out: SentFilters = { ...rest };
  if (time?.start) out.startTime = time.start;
  if (time?.end) out.endTime = time.end;
  return out;
}

const clip = (text: string) => (
  <Tooltip title={text} placement="topLeft" overlayStyle={{ maxWidth: 480, whiteSpace: 'pre-wrap' }}>
    {text}
  </Tooltip>
);

function sentColumns(t: TFunction, sep: string): ColumnsType<SentMessage> {
  return [
    { title: t('message.time'), dataIndex: 'createdAt', key: 'createdAt', width: 170 },
    { title: t('message.title'), dataIndex: 'title', key: 'title', width: 200, ellipsis: true },
    { title: t('message.content'), dataIndex: 'content', key: 'content', ellipsis: { showTitle: false }, render: clip },
    { title: t('message.sender'), dataIndex: 'senderName', key: 'senderName', width: 120, ellipsis: true },
    {
      title: t('message.targets'),
      key: 'targets',
      width: 240,
      ellipsis: { showTitle: false },
      render: (_: unknown, m: SentMessage) =>
        clip(
          [...(m.targets.groups ?? []).map((g) => t('message.groupTarget', { name: g })), ...(m.targets.users ?? [])].join(sep),
        ),
    },
    { title: t('message.readCount'), key: 'read', width: 110, align: 'right', render: (_: unknown, m: SentMessage) => `${m.read} / ${m.recipients}` },
  ];
}

function receivedColumns(t: TFunction, reload: () => void): ColumnsType<ReceivedMessage> {
  return [
    { title: t('message.time'), dataIndex: 'createdAt', key: 'createdAt', width: 170 },
    {
      title: t('message.title'),
      dataIndex: 'title',
      key: 'title',
      width: 220,
      ellipsis: true,
      render: (v: string, m) => (m.readAt ? v : <Badge status="processing" text={v} />),
    },
    { title: t('message.content'), dataIndex: 'content', key: 'content', ellipsis: { showTitle: false }, render: clip },
    { title: t('message.sender'), dataIndex: 'senderName', key: 'senderName', width: 120 },
    {
      title: t('message.state'),
      key: 'readAt',
      width: 150,
      render: (_: unknown, m) =>
        m.readAt ? (
          <Tag>{t('message.read')}</Tag>
        ) : (
          <Button size="small" type="link" onClick={() => void markRead([m.id]).then(reload, () => undefined)}>
            {t('message.markRead')}
          </Button>
        ),
    },
  ];
}

function SentList() {
  const { t } = useTranslation();
  const [sending, setSending] = useState<null | (() => void)>(null);
  return (
    <ListPage<SentMessage, SentFilters>
      queryKey="messageSent"
      rowKey="id"
      fetch={pageMessages}
      toFilters={toSentFilters}
      exportRequest={(f) => ({ url: '/authority-app/message/export', method: 'POST', data: f, fallbackName: 'system-messages.xlsx' })}
      exportAlways
      tableProps={{ scroll: { x: 1100 } }}
      toolbar={({ reload }) => (
        <>
          <Button type="primary" onClick={() => setSending(() => reload)}>
            {t('message.send')}
          </Button>
          {sending && <SendForm onClose={() => setSending(null)} onSent={sending} />}
        </>
      )}
      filters={
        <>
          <Form.Item name="title" label={t('message.title')}>
            <Input allowClear style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="senderName" label={t('message.sender')}>
            <Input allowClear style={{ width: 130 }} />
          </Form.Item>
          <Form.Item name="time" label={t('message.time')}>
            <TimeRangePicker showTime />
          </Form.Item>
        </>
      }
      columns={sentColumns(t, t('common.listSeparator'))}
    />
  );
}

function ReceivedList() {
  const { t } = useTranslation();
  return (
    <ListPage<ReceivedMessage, { unread?: boolean }>
      queryKey="messageReceived"
      rowKey="id"
      fetch={receivedMessages}
      columns={({ reload }) => receivedColumns(t, reload)}
      tableProps={{ scroll: { x: 900 } }}
    />
  );
}

/** 系统消息: send a title and text to users and groups of one's scope (live on their consoles), the sent list, and one's own messages. */
export default function MessagePage() {
  const { t } = useTranslation();
  return (
    <Tabs
      destroyOnHidden
      tabBarStyle={{ paddingInline: 16, marginBottom: 0 }}
      items={[
        { key: 'sent', label: t('message.sentTab'), children: <SentList /> },
        { key: 'received', label: t('message.receivedTab'), children: <ReceivedList /> },
      ]}
    />
  );
}
