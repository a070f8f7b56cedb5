import { fromBinary } from '@bufbuild/protobuf';
import { Modal } from 'antd';
import type { ReactNode } from 'react';
import { feedback } from '../api/feedback';
import i18n from '../i18n';
import { zoneTime } from '../lib/zone';
import { ChatMessageSchema, type ChatMessage } from '../proto/chat_pb';
import { currentHelpView, localText, type LiveMessage } from './liveMessages';

/**
 * The live message dialogs of spec §8: a topic starting with `msg` opens a warning titled live.systemMessage;
 * any other topic (requestHelp) a confirm titled live.helpRequest, 700 wide, closable, showing the registered
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
      const texts = m.texts && typeof m.texts === 'object' ? m.texts : undefined;
      return { kind: 'json', message: { key: m.key ?? '', code: m.code ?? '', message: m.message ?? '', texts, timestamp: Number(m.timestamp ?? 0), data: m.data ?? {} } };
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

type Handle = { update?: (props: Record<string, unknown>) => void; destroy?: () => void } | undefined;

/**
 * A dispatcher's console stays open all day while a fleet reports: live messages must not stack
 * dialogs on top of each other. While a system-message dialog is open, later system messages join it (newest
 * first, the latest MAX_SHOWN of them); while a help-request dialog is open, later requests wait and open
 * one after another as each is closed.
 */
const MAX_SHOWN = 20;
let systemOpen: { handle: NonNullable<Handle>; bodies: { key: number; node: ReactNode }[]; count: number } | null = null;
let helpOpen = false;
const helpQueue: LiveMessage[] = [];
let seq = 0;

/** Forgets open dialogs and queued requests (tests; sign-out). */
export function resetLiveDialogs(): void {
  systemOpen = null;
  helpOpen = false;
  helpQueue.length = 0;
}

function systemContent(bodies: { key: number; node: ReactNode }[], count: number) {
  return (
    <div className="tw-live-messages">
      {count > 1 ? <div className="tw-muted" style={{ marginBottom: 8 }}>{i18n.t('live.count', { count })}</div> : null}
      {bodies.map((b, i) => (
        <div key={b.key} style={i > 0 ? { borderTop: '1px solid rgba(5,5,5,0.06)', marginTop: 8, paddingTop: 8 } : undefined}>
          {b.node}
        </div>
      ))}
    </div>
  );
}

function showSystem(node: ReactNode) {
  const body = { key: ++seq, node };
  if (systemOpen?.handle.update) {
    systemOpen.bodies = [body, ...systemOpen.bodies].slice(0, MAX_SHOWN);
    systemOpen.count++;
    systemOpen.handle.update({ content: systemContent(systemOpen.bodies, systemOpen.count) });
    return;
  }
  const handle: Handle = modal().warning({
    title: i18n.t('live.systemMessage'),
    content: systemContent([body], 1),
    afterClose: () => {
      if (systemOpen?.handle === handle) systemOpen = null;
    },
  });
  if (handle) systemOpen = { handle, bodies: [body], count: 1 };
}

function showHelp(message: LiveMessage) {
  if (helpOpen) {
    helpQueue.push(message);
    return;
  }
  const view = currentHelpView();
  const ref: { handle?: Handle } = {};
  const close = () => ref.handle?.destroy?.();
  helpOpen = true;
  ref.handle = modal().confirm({
    title: i18n.t('live.helpRequest'),
    width: 700,
    closable: true,
    icon: null,
    content: view ? view(message, close) : <TextBody text={localText(message, i18n.language)} time={message.timestamp} />,
    ...(view ? { footer: null } : {}),
    afterClose: () => {
      helpOpen = false;
      const next = helpQueue.shift();
      if (next) showHelp(next);
    },
  });
  if (!ref.handle) helpOpen = false;
}

export function showLiveMessage(topic: string, payload: Uint8Array): void {
  const d = decodePayload(payload);
  if (topic.startsWith('msg')) {
    showSystem(d.kind === 'chat' ? <ChatBody m={d.message} /> : d.kind === 'json' ? <TextBody text={localText(d.message, i18n.language)} time={d.message.timestamp} /> : <TextBody text={d.text} />);
    return;
  }
  showHelp(d.kind === 'json' ? d.message : { key: '', code: '', message: d.kind === 'chat' ? d.message.content : d.text, timestamp: Date.now(), data: {} });
}
