import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Empty, List, Popover, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { zoneTime } from '../../lib/zone';
import { pendingCount, useLiveInbox, type InboxItem } from '../liveInbox';
import { localText } from '../liveMessages';

function summaryOf(i: InboxItem, lang: string): string {
  const b = i.body;
  if (b.kind === 'chat') return b.title || b.content;
  if (b.kind === 'json') return localText(b.message, lang);
  return b.text;
}

function StateTag({ i }: { i: InboxItem }) {
  const { t } = useTranslation();
  if (i.kind === 'help') return i.answered ? <Tag color="success">{t('live.answered')}</Tag> : <Tag color="warning">{t('live.awaitingAnswer')}</Tag>;
  return i.read ? <Tag>{t('live.read')}</Tag> : <Tag color="processing">{t('live.unread')}</Tag>;
}

/**
 * The header's list of live messages (系统信息, 求助消息) received in this console: the badge counts the unread
 * ones and the help requests still waiting for an answer; a click reopens one in its dialog.
 */
export function LiveInbox() {
  const { t, i18n } = useTranslation();
  const items = useLiveInbox((s) => s.items);
  const [open, setOpen] = useState(false);
  const n = pendingCount(items);
  const reopen = (id: string) => {
    setOpen(false);
    void import('../liveDialogs').then((m) => m.reopen(id));
  };
  const list = (
    <div style={{ width: 360, maxHeight: 420, overflowY: 'auto' }} data-testid="live-inbox">
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('live.inboxEmpty')} />
      ) : (
        <List
          size="small"
          dataSource={items}
          rowKey="id"
          renderItem={(i) => (
            <List.Item className="tw-inbox-item" style={{ cursor: 'pointer', fontWeight: i.read ? undefined : 600 }} onClick={() => reopen(i.id)} data-id={i.id}>
              <div style={{ minWidth: 0, flex: 1 }}>
                <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
                  <span>{i.kind === 'help' ? t('live.helpRequest') : t('live.systemMessage')}</span>
                  <StateTag i={i} />
                </div>
                <Typography.Text ellipsis style={{ display: 'block', fontWeight: 'inherit' }}>
                  {summaryOf(i, i18n.language)}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {zoneTime(i.received).format('YYYY-MM-DD HH:mm:ss')}
                </Typography.Text>
              </div>
            </List.Item>
          )}
        />
      )}
    </div>
  );
  return (
    <Popover content={list} title={t('live.inbox')} trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen}>
      <Tooltip title={open ? undefined : t('live.inbox')}>
        <Button type="text" className="tw-header-btn" aria-label={t('live.inbox')} data-testid="live-inbox-button">
          <Badge count={n} size="small" overflowCount={99}>
            <BellOutlined style={{ color: 'rgba(255,255,255,0.82)', fontSize: 16 }} />
          </Badge>
        </Button>
      </Tooltip>
    </Popover>
  );
}
