/** Colours of the waybill states' tags (shared by the plan pages and the load records page). */
export const STATE_COLOR: Record<string, string> = {
  PLANNED: 'default',
  DISPATCHED: 'blue',
  LOADING: 'cyan',
  LOADED: 'geekblue',
  SEALED: 'purple',
  IN_TRANSIT: 'processing',
  ARRIVED: 'lime',
  UNSEALED: 'gold',
  UNLOADING: 'orange',
  RECEIVED: 'green',
  CLOSED: 'success',
  DIFF_FLAGGED: 'red',
  CANCELLED: 'default',
};

/** A plan's progress: items delivered out of all, in percent (0 for an empty plan). */
export function progressPct(delivered: number, total: number): number {
  return total > 0 ? Math.round((delivered / total) * 100) : 0;
}
