import { create } from 'zustand';
import type { LiveMessage } from './liveMessages';

/**
 * What the live dialogs received this session, for the header's list (reopen any of them) and for the
 * rule that a message once read does not pop up again: not on another page, not in another browser tab
 * of the same console (the tabs share this record through localStorage and its `storage` event).
 * A help request stays "waiting for an answer" until it is answered (unlock, lock or ignore); closing
 * its dialog only marks it read.
 */
export type StoredBody =
  | { kind: 'chat'; title: string; content: string; sender: string; time: number }
  | { kind: 'json'; message: LiveMessage }
  | { kind: 'text'; text: string };

export interface InboxItem {
  /** The same message delivered to two tabs has the same id (kind + payload digest). */
  id: string;
  kind: 'system' | 'help';
  /** When it arrived here (ms). */
  received: number;
  body: StoredBody;
  read: boolean;
  /** help only: the dispatcher answered it. */
  answered?: boolean;
}

export const INBOX_KEY = 'liveInbox';
/** Kept for the header list; older ones drop off. */
export const INBOX_MAX = 50;

function load(): InboxItem[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(INBOX_KEY) ?? '[]');
    return Array.isArray(v) ? (v as InboxItem[]) : [];
  } catch {
    return [];
  }
}

function save(items: InboxItem[]): void {
  try {
    localStorage.setItem(INBOX_KEY, JSON.stringify(items));
  } catch {
    // storage full or denied: the list still works in this tab
  }
}

interface InboxState {
  items: InboxItem[];
  /** Adds a message unless it is known; returns false when it was already there. */
  add: (item: InboxItem) => boolean;
  markRead: (id: string) => void;
  markAnswered: (id: string) => void;
  /** Re-reads the shared record (another tab changed it). */
  reload: () => void;
  clear: () => void;
}

/** Merges this tab's and the stored record so that two tabs adding at once lose nothing. */
function persist(update: (items: InboxItem[]) => InboxItem[]): InboxItem[] {
  const next = update(load()).slice(0, INBOX_MAX);
  save(next);
  return next;
}

export const useLiveInbox = create<InboxState>((set) => ({
  items: load(),
  add: (item) => {
    let added = false;
    const items = persist((items) => {
      if (items.some((i) => i.id === item.id)) return items;
      added = true;
      return [item, ...items];
    });
    set({ items });
    return added;
  },
  markRead: (id) => set({ items: persist((items) => items.map((i) => (i.id === id ? { ...i, read: true } : i))) }),
  markAnswered: (id) => set({ items: persist((items) => items.map((i) => (i.id === id ? { ...i, read: true, answered: true } : i))) }),
  reload: () => set({ items: load() }),
  clear: () => {
    localStorage.removeItem(INBOX_KEY);
    set({ items: [] });
  },
}));

/** Unread messages plus help requests still waiting for an answer: the header badge. */
export function pendingCount(items: readonly InboxItem[]): number {
  return items.filter((i) => !i.read || (i.kind === 'help' && !i.answered)).length;
}

/** The next message to show: help requests first (someone is waiting at a truck), then the oldest unread. */
export function nextUnread(items: readonly InboxItem[]): InboxItem | undefined {
  const unread = items.filter((i) => !i.read);
  return unread.filter((i) => i.kind === 'help').at(-1) ?? unread.at(-1);
}

/** A short digest of the payload (FNV-1a): the id two tabs agree on for the same delivery. */
export function digest(kind: string, payload: Uint8Array): string {
  let h = 0x811c9dc5;
  for (const b of payload) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${kind}:${payload.length}:${h.toString(16)}`;
}
