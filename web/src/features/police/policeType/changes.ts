import type { TFunction } from 'i18next';
import type { AlarmType } from '../../../api/alarm';
import { ROMAN } from '../common/alarmUi';

type Editable = Pick<AlarmType, 'level' | 'group' | 'enabled' | 'push'>;

/**
 * What a change to an alarm type does, one line per field that differs, for the confirmation before saving:
 * alarm types are platform-wide, so the administrator reads exactly what every group's alarms will do.
 */
export function describeTypeChange(ty: AlarmType, change: Partial<Editable>, t: TFunction): string[] {
  const show = {
    level: (v: number) => t('alarm.levelN', { n: ROMAN[v] ?? v }),
    group: (v: string) => t(`alarm.groupName.${v}`),
    enabled: (v: boolean) => (v ? t('common.yes') : t('common.no')),
    push: (v: boolean) => (v ? t('common.yes') : t('common.no')),
  };
  const label = { level: t('alarm.level'), group: t('alarm.groupLabel'), enabled: t('policeType.enabled'), push: t('policeType.push') };
  const out: string[] = [];
  for (const k of ['level', 'group', 'enabled', 'push'] as const) {
    const to = change[k];
    if (to === undefined || to === ty[k]) continue;
    const fmt = show[k] as (v: unknown) => string;
    out.push(t('policeType.changeLine', { name: ty.name, field: label[k], from: fmt(ty[k]), to: fmt(to) }));
  }
  return out;
}
