import type { TFunction } from 'i18next';
import type { ControlSettings } from '../../../api/alarm';

/**
 * What saving the control settings changes, one line per difference (thresholds, vehicle-class limits, watched
 * alarm types added and removed), for the confirmation that names them before they apply to a whole subtree.
 */
export function describeControlChange(before: ControlSettings, after: ControlSettings, typeName: (code: string) => string, t: TFunction): string[] {
  const out: string[] = [];
  const units: Record<'speedLimit' | 'parkingMinutes' | 'offlineMinutes' | 'levelDropLitres', string> = {
    speedLimit: 'km/h',
    parkingMinutes: t('controlMode.min'),
    offlineMinutes: t('controlMode.min'),
    levelDropLitres: 'L',
  };
  for (const k of ['speedLimit', 'parkingMinutes', 'offlineMinutes', 'levelDropLitres'] as const) {
    if (before[k] !== after[k]) out.push(t('controlMode.changeLine', { field: t(`controlMode.${k}`), from: `${before[k]} ${units[k]}`, to: `${after[k]} ${units[k]}` }));
  }
  const none = t('controlMode.none');
  const classes = new Set([...Object.keys(before.classSpeed ?? {}), ...Object.keys(after.classSpeed ?? {})]);
  for (const c of [...classes].sort()) {
    const from = before.classSpeed?.[c];
    const to = after.classSpeed?.[c];
    if (from !== to) out.push(t('controlMode.changeLine', { field: c, from: from === undefined ? none : `${from} km/h`, to: to === undefined ? none : `${to} km/h` }));
  }
  const was = new Set(before.watched ?? []);
  const now = new Set(after.watched ?? []);
  const added = [...now].filter((c) => !was.has(c)).map(typeName);
  const removed = [...was].filter((c) => !now.has(c)).map(typeName);
  const sep = t('common.listSeparator');
  if (added.length) out.push(t('controlMode.watchAdded', { names: added.join(sep) }));
  if (removed.length) out.push(t('controlMode.watchRemoved', { names: removed.join(sep) }));
  return out;
}
