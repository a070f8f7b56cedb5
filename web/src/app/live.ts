/**
 * The live messaging connection (spec §4, §7: MQTT over WebSocket, topics online/offline/msg/requestHelp
 * per user). Later work implements it; the shell already calls these hooks at the right moments:
 * - `online(userId)` after sign-in / on shell mount when a user id is present,
 * - `offline()` during logout, before local storage is cleared.
 * Both must be safe to call at any time and never throw.
 */
export const liveConnection = {
  online(_userId: string | number): void {
    // not implemented yet
  },
  offline(): void {
    // not implemented yet
  },
};
