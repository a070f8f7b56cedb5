// the live connection starts at sign-in, possibly before ConsoleRoot (which imports the patch too) has
// mounted: the static Modal this falls back to needs antd's React 19 patch (D83)
import '@ant-design/v5-patch-for-react-19';
import { fromBinary } from '@bufbuild/protobuf';
import { Modal } from 'antd';
import type { ReactNode } from 'react';
import { feedback } from '../api/feedback';
import i18n from '../i18n';
import { zoneTime } from '../lib/zone';
import { ChatMessageSchema, type ChatMessage } from '../proto/chat_pb';
import { digest, INBOX_KEY, nextUnread, useLiveInbox, type InboxItem, type StoredBody } from './liveInbox';
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

function ChatBody({ m }: { m: Pick<ChatMessage, 'title' | 'content' | 'sender'> & { timestamp: number | bigint } }) {
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
 * A dispatcher's console stays open all day while a fleet reports: live messages must not pile up.
 * One dialog at a time; it says how many more are waiting, and the header lists them all (liveInbox).
 * Closing a dialog marks its message read, and the next one opens (help requests first). A message read
 * here, or in another tab of the console, never pops up again; a help request closed without an answer
 * stays in the header list as waiting for one.
 */
let open: { id: string; handle: NonNullable<Handle>; render: (waiting: number) => ReactNode; silent: boolean } | null = null;

/** Forgets the open dialog (tests; sign-out). */
export function resetLiveDialogs(): void {
  open = null;
}

function storedBody(d: Decoded): StoredBody {
  if (d.kind === 'chat') return { kind: 'chat', title: d.message.title, content: d.message.content, sender: d.message.sender, time: Number(d.message.timestamp) };
  if (d.kind === 'json') return { kind: 'json', message: d.message };
  return { kind: 'text', text: d.text };
}

function helpMessage(b: StoredBody): LiveMessage {
  if (b.kind === 'json') return b.message;
  return { key: '', code: '', message: b.kind === 'chat' ? b.content : b.text, timestamp: b.kind === 'chat' ? b.time : 0, data: {} };
}

function SystemBody({ b }: { b: StoredBody }) {
  if (b.kind === 'chat') return <ChatBody m={{ title: b.title, content: b.content, sender: b.sender, timestamp: b.time }} />;
  if (b.kind === 'json') return <TextBody text={localText(b.message, i18n.language)} time={b.message.timestamp} />;
  return <TextBody text={b.text} />;
}

function waitingCount(): number {
  return useLiveInbox.getState().items.filter((i) => !i.read && i.id !== open?.id).length;
}

function Waiting({ n }: { n: number }) {
  return n > 0 ? (
    <div className="tw-muted" data-testid="live-waiting" style={{ marginTop: 12 }}>
      {i18n.t('live.waiting', { count: n })}
    </div>
  ) : null;
}

function refreshWaiting() {
  if (open) open.handle.update?.({ content: open.render(waitingCount()) });
}

function show(item: InboxItem) {
  const ref: { handle?: Handle } = {};
  const afterClose = () => {
    const was = open;
    if (!was || was.handle !== ref.handle) return;
    open = null;
    if (!was.silent) useLiveInbox.getState().markRead(item.id);
    pump();
  };
  let render: (waiting: number) => ReactNode;
  if (item.kind === 'system') {
    render = (n) => (
      <>
        <SystemBody b={item.body} />
        <Waiting n={n} />
      </>
    );
    open = { id: item.id, handle: {}, render, silent: false };
    ref.handle = modal().warning({ title: i18n.t('live.systemMessage'), content: render(waitingCount()), afterClose });
  } else {
    const message = helpMessage(item.body);
    const view = currentHelpView();
    const close = () => ref.handle?.destroy?.();
    const answered = () => useLiveInbox.getState().markAnswered(item.id);
    render = (n) => (
      <>
        {view ? view(message, close, answered) : <TextBody text={localText(message, i18n.language)} time={message.timestamp} />}
        <Waiting n={n} />
      </>
    );
    open = { id: item.id, handle: {}, render, silent: false };
    ref.handle = modal().confirm({
      title: i18n.t('live.helpRequest'),
      width: 700,
      closable: true,
      icon: null,
      content: render(waitingCount()),
      ...(view ? { footer: null } : {}),
      afterClose,
    });
  }
  if (ref.handle) open = { id: item.id, handle: ref.handle, render, silent: false };
  else open = null;
}

/** Opens the next unread message when no dialog is open; otherwise updates the open one's waiting count. */
export function pump(): void {
  if (open) {
    refreshWaiting();
    return;
  }
  const next = nextUnread(useLiveInbox.getState().items);
  if (next) show(next);
}

/** Reopens a message from the header list (the open dialog, if another, closes and its message stays unread). */
export function reopen(id: string): void {
  const item = useLiveInbox.getState().items.find((i) => i.id === id);
  if (!item) return;
  if (open?.id === id) return;
  if (open) {
    open.silent = true;
    open.handle.destroy?.();
    open = null;
  }
  show(item);
}

/** Another tab read the open message: close it here too, quietly. */
export function syncFromStorage(): void {
  useLiveInbox.getState().reload();
  if (open && useLiveInbox.getState().items.find((i) => i.id === open?.id)?.read) {
    const h = open.handle;
    open.silent = true;
    h.destroy?.();
    open = null;
  }
  pump();
}

/**
 * A page that shows some live messages itself (the video wall shows alarms on its tiles) keeps them out
 * of the dialogs while it is open: they go to the header list as read. Returns the removal.
 */
let shownElsewhere: ((d: Decoded, topic: string) => boolean) | null = null;
export function showLiveMessagesElsewhere(fn: (d: Decoded, topic: string) => boolean): () => void {
  shownElsewhere = fn;
  return () => {
    if (shownElsewhere === fn) shownElsewhere = null;
  };
}

export function showLiveMessage(topic: string, payload: Uint8Array): void {
  const d = decodePayload(payload);
  const kind = topic.startsWith('msg') ? 'system' : 'help';
  const id = digest(kind, payload);
  const inbox = useLiveInbox.getState();
  inbox.add({ id, kind, received: Date.now(), body: storedBody(d), read: false });
  if (shownElsewhere?.(d, topic)) {
    useLiveInbox.getState().markRead(id);
    return;
  }
  // known already and read (in another tab, or before a reload): it does not pop up again
  if (useLiveInbox.getState().items.find((i) => i.id === id)?.read) return;
  pump();
}

// the tabs of one console share the inbox: what one reads, the others close
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === INBOX_KEY || e.key === null) syncFromStorage();
  });
}
