import { fromBinary } from '@bufbuild/protobuf';
import { Modal } from 'antd';
import { feedback } from '../api/feedback';
import i18n from '../i18n';
import { zoneTime } from '../lib/zone';
import { ChatMessageSchema, type ChatMessage } from '../proto/chat_pb';
import { currentHelpView, type LiveMessage } from './liveMessages';

/**
 * The live message dialogs of spec §8: a topic starting with `msg` opens a warning titled 系统信息;
 * any other topic (requestHelp) a confirm titled 求助消息, 700 wide, closable, showing the registered
 * help view (then without the default buttons) or the message text. System messages arrive as the
 * binary ChatMessage, alarms and help requests as the JSON LiveMessage: the payload tells them apart.
 */
export type Decoded = { kind: 'json'; message: LiveMessage } | { kind: 'chat'; message: ChatMessage } | { kind: 'text'; text: string };

export function decodePayload(payload: Uint8Array): Decoded {
  const text = new TextDecoder().decode(payload);
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object') {
      const m = v as Partial<LiveMessage>;
      return { kind: 'json', message: { key: m.key ?? '', code: m.code ?? '', message: m.message ?? '', timestamp: Number(m.timestamp ?? 0), data: m.data ?? {} } };
    }
  } catch {
    // not JSON: a ChatMessage
  }
  try {
    return { kind: 'chat', message: fromBinary(ChatMessageSchema, payload) };
  } catch {
    return { kind: 'text', text };
  }
}

// shown on the platform's wall clock (Asia/Shanghai) like every other time of the console
const fmt = (ms: number | bigint) => (Number(ms) ? zoneTime(Number(ms)).format('YYYY-MM-DD HH:mm:ss') : '');

function ChatBody({ m }: { m: ChatMessage }) {
  return (
    <div className="tw-live-message">
      {m.title ? <div style={{ fontWeight: 600, marginBottom: 8 }}>{m.title}</div> : null}
      <div style={{ whiteSpace: 'pre-wrap' }}>{m.content}</div>
      <div className="tw-muted" style={{ marginTop: 8, fontSize: 12 }}>
        {[m.sender && i18n.t('live.from', { name: m.sender }), fmt(m.timestamp)].filter(Boolean).join(' · ')}
      </div>
    </div>
  );
}

function TextBody({ text, time }: { text: string; time?: number }) {
  return (
    <div className="tw-live-message">
      <div style={{ whiteSpace: 'pre-wrap' }}>{text}</div>
      {time ? (
        <div className="tw-muted" style={{ marginTop: 8, fontSize: 12 }}>
          {fmt(time)}
        </div>
      ) : null}
    </div>
  );
}

const modal = () => feedback.modal ?? Modal;

export function showLiveMessage(topic: string, payload: Uint8Array): void {
  const d = decodePayload(payload);
  if (topic.startsWith('msg')) {
    const content = d.kind === 'chat' ? <ChatBody m={d.message} /> : d.kind === 'json' ? <TextBody text={d.message.message} time={d.message.timestamp} /> : <TextBody text={d.text} />;
    modal().warning({ title: i18n.t('live.systemMessage'), content });
    return;
  }
  const message: LiveMessage =
    d.kind === 'json' ? d.message : { key: '', code: '', message: d.kind === 'chat' ? d.message.content : d.text, timestamp: Date.now(), data: {} };
  const view = currentHelpView();
  let close = () => {};
  const instance = modal().confirm({
    title: i18n.t('live.helpRequest'),
    width: 700,
    closable: true,
    icon: null,
    content: view ? view(message, () => close()) : <TextBody text={message.message} time={message.timestamp} />,
    ...(view ? { footer: null } : {}),
  });
  close = () => instance.destroy();
}
