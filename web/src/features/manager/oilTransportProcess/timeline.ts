import dayjs from 'dayjs';
import { MAIN_STATES, type StepView, type Trip, type TripDetail, type WaybillState } from '../../../api/transportProcess';

/** One item of a trip's timeline: its creation, a stored step, a mark (an opening on the way), or a step not yet reached. */
export type TimelineItem =
  | { kind: 'created'; state: 'PLANNED'; t: number }
  | { kind: 'step'; state: WaybillState; t: number; step: StepView; warn: boolean }
  | { kind: 'mark'; state: WaybillState; t: number; step: StepView }
  | { kind: 'planned'; state: WaybillState; t: number };

/** The planned time of a state not yet reached, where the waybill has one (0: none). */
export function plannedAt(state: WaybillState, w: Pick<Trip, 'plannedLoadAt' | 'plannedArriveAt'>): number {
  if (state === 'LOADING' || state === 'LOADED') return w.plannedLoadAt;
  if (state === 'ARRIVED') return w.plannedArriveAt;
  return 0;
}

/** The states still ahead of a waybill in state s (a flagged trip still closes after review; a cancelled one has none). */
export function statesAhead(s: WaybillState): WaybillState[] {
  if (s === 'CANCELLED' || s === 'CLOSED') return [];
  if (s === 'DIFF_FLAGGED') return ['CLOSED'];
  const i = MAIN_STATES.indexOf(s as (typeof MAIN_STATES)[number]);
  return MAIN_STATES.slice(i + 1);
}

/**
 * The timeline of a trip from PLANNED to CLOSED: its creation, every stored step in the order recorded
 * (a correction, a departure without seals and the side states in a warning style), the marks, then the
 * states not yet reached, greyed with their planned times.
 */
export function timelineItems(d: Pick<TripDetail, 'waybill' | 'steps'>): TimelineItem[] {
  const w = d.waybill;
  const out: TimelineItem[] = [{ kind: 'created', state: 'PLANNED', t: w.createdAt }];
  for (const s of d.steps) {
    if (s.mark) out.push({ kind: 'mark', state: s.to, t: s.t, step: s });
    else {
      const leftUnsealed = s.to === 'IN_TRANSIT' && s.from !== 'SEALED' && w.leftUnsealed;
      const warn = s.evidence === 0 || leftUnsealed || s.to === 'DIFF_FLAGGED' || s.to === 'CANCELLED';
      out.push({ kind: 'step', state: s.to, t: s.t, step: s, warn });
    }
  }
  for (const st of statesAhead(w.state)) out.push({ kind: 'planned', state: st, t: plannedAt(st, w) });
  return out;
}

/** 'YYYY-MM-DD HH:mm:ss', or '—' for 0. */
export function fmtTime(ms: number): string {
  return ms > 0 ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '—';
}

/** Litres with one decimal and thousands separators. */
export function fmtL(v: number): string {
  return v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** Hours and minutes of a duration in minutes; null when unknown (< 0). */
export function hm(min: number): { h: number; m: number } | null {
  if (min < 0 || !Number.isFinite(min)) return null;
  const total = Math.round(min);
  return { h: Math.floor(total / 60), m: total % 60 };
}

/** The board's phases (transportProcess2, D46) and the states in each. */
export const PHASES = {
  waiting: ['PLANNED', 'DISPATCHED'],
  loading: ['LOADING', 'LOADED', 'SEALED'],
  transit: ['IN_TRANSIT'],
  unloading: ['ARRIVED', 'UNSEALED', 'UNLOADING', 'RECEIVED'],
  review: ['DIFF_FLAGGED'],
  closed: ['CLOSED'],
} as const satisfies Record<string, readonly WaybillState[]>;
export type Phase = keyof typeof PHASES;
export const PHASE_ORDER = Object.keys(PHASES) as Phase[];

export function phaseOf(s: WaybillState): Phase | null {
  for (const p of PHASE_ORDER) if ((PHASES[p] as readonly WaybillState[]).includes(s)) return p;
  return null;
}
