import type { ReactNode } from 'react';

/**
 * The JSON live message of spec §3 as it arrives over MQTT (msg/user/{id}, requestHelp/user/{id}).
 * internal/messaging.Message is its server side.
 */
export interface LiveMessage {
  key: string;
  code: string;
  message: string;
  /** The message in every console language (tag → text) when the server wrote it; `message` is zh-CN. */
  texts?: Record<string, string>;
  timestamp: number;
  data: Record<string, string>;
}

/** The message's text in the console's language, else its spec §3 `message`. */
export function localText(m: LiveMessage, lang: string): string {
  return m.texts?.[lang] ?? m.message;
}

/**
 * What the 求助消息 dialog shows for a requestHelp message. The help-request feature registers its
 * detail view (map or 未定位, type, time, plate, speed, address and its own cancel / unlock-or-lock /
 * ignore buttons); `close` closes the dialog, `answered` records that the request got its answer (until
 * then the header keeps it as waiting). Without a registered view the dialog shows the text.
 */
export type HelpView = (message: LiveMessage, close: () => void, answered: () => void) => ReactNode;

let helpView: HelpView | null = null;

export function registerHelpView(view: HelpView | null): void {
  helpView = view;
}

export function currentHelpView(): HelpView | null {
  return helpView;
}
