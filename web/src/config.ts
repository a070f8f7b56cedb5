/** Runtime configuration. The console is served by the TankWatch binary, so the API is same-origin. */
export const config = {
  /** Base URL for API calls ('' = same origin). Override at build time with VITE_API_BASE. */
  apiBase: (import.meta.env.VITE_API_BASE as string | undefined) ?? '',
  /** Path of the error-logging call (requests to it are never logged themselves). */
  errorLogPath: '/authority-app/errorLog/add',
};
