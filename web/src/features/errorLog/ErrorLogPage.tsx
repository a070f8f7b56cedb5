import { Button, Card, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useAppStore, type ErrorLogEntry } from '../../app/store';

/** The session's error log (spec §3, §8): request and script errors, with a clear button. */
export default function ErrorLogPage() {
  const { t } = useTranslation();
  const entries = useAppStore((s) => s.errorLog);
  const clear = useAppStore((s) => s.clearErrors);
  return (
    <div className="tw-page">
      <Card
        variant="borderless"
        title={t('menu.errorLog')}
        extra={
          <Button danger disabled={entries.length === 0} onClick={clear}>
            {t('errorLog.clear')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('errorLog.description')}</Typography.Paragraph>
        <Table<ErrorLogEntry>
          rowKey="id"
          size="middle"
          dataSource={entries}
          locale={{ emptyText: t('errorLog.empty') }}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          columns={[
            { title: t('errorLog.time'), dataIndex: 'time', width: 180, render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss') },
            { title: t('errorLog.type'), dataIndex: 'type', width: 110, render: (v: string) => <Tag color={v === 'script' ? 'orange' : 'red'}>{v}</Tag> },
            { title: t('errorLog.code'), dataIndex: 'code', width: 80 },
            { title: t('errorLog.message'), dataIndex: 'message', ellipsis: true },
            { title: t('errorLog.url'), dataIndex: 'url', ellipsis: true },
            { title: t('errorLog.userName'), dataIndex: 'userName', width: 120 },
          ]}
        />
      </Card>
    </div>
  );
}
