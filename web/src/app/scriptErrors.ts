import { logError } from '../api/client';

/** Spec §8: a window script error is logged as {type: 'script', code: 0, message, url}. */
export function installScriptErrorLogging(): void {
  window.addEventListener('error', (ev) => {
    if (!ev.message) return; // resource load errors have no message
    logError('script', 0, ev.message, ev.filename || window.location.href);
  });
  window.addEventListener('unhandledrejection', (ev) => {
    const reason = ev.reason as { isAxiosError?: boolean; name?: string; message?: string } | undefined;
    if (reason?.isAxiosError || reason?.name === 'BusinessError') return; // already handled by the client
    logError('script', 0, String(reason?.message ?? reason ?? 'unhandled rejection'), window.location.href);
  });
}
