import { useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { alarmTypes, type AlarmState } from '../../../api/alarm';

/** Level I is the most severe: red, then orange, gold, blue, grey. */
export const LEVEL_COLOURS = ['', 'red', 'volcano', 'gold', 'blue', 'default'] as const;
export const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V'] as const;

export function LevelTag({ level }: { level: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={LEVEL_COLOURS[level] ?? 'default'} data-testid={`level-${level}`}>
      {t('alarm.levelN', { n: ROMAN[level] ?? level })}
    </Tag>
  );
}

const STATE_COLOURS: Record<AlarmState, string> = { 0: 'error', 1: 'success', 2: 'warning' };

export function StateTag({ state }: { state: AlarmState }) {
  const { t } = useTranslation();
  return <Tag color={STATE_COLOURS[state]}>{t(`alarm.state.${state}`)}</Tag>;
}

/** The alarm types (names in the caller's language), shared by the filters of every alarm page. */
export function useAlarmTypes() {
  const { i18n } = useTranslation();
  return useQuery({ queryKey: ['alarmTypes', i18n.language], queryFn: alarmTypes, staleTime: 60_000 });
}
