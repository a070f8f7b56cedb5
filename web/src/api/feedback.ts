import type { App } from 'antd';

type AppApi = ReturnType<typeof App.useApp>;

/**
 * The antd message/modal/notification instances of the mounted <App>, so non-React code (the API
 * client) shows feedback with the current theme and locale. Set by <FeedbackBridge/>.
 */
export const feedback: {
  message: AppApi['message'] | null;
  modal: AppApi['modal'] | null;
  notification: AppApi['notification'] | null;
} = { message: null, modal: null, notification: null };

export function warn(text: string): void {
  if (feedback.message) void feedback.message.warning(text);
  else console.warn(text);
}

/**
 * A warning shown once however often it is raised: the same key replaces the toast instead of stacking
 * another (a page whose requests all come back 403 says so once, not once per request).
 */
export function warnOnce(key: string, text: string): void {
  if (feedback.message) void feedback.message.open({ type: 'warning', content: text, key });
  else console.warn(text);
}

export function errorMsg(text: string): void {
  if (feedback.message) void feedback.message.error(text);
  else console.error(text);
}

export function success(text: string): void {
  if (feedback.message) void feedback.message.success(text);
}
