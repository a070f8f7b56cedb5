import { DatePicker, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFor, formatRange, parseRange, PLEASE_SELECT_TIME, presetsFor, rangeOf, resolveDefault, type PresetTag } from '../lib/presets';

export interface TimeRangeValue {
  preset: PresetTag | typeof PLEASE_SELECT_TIME;
  /** Formatted 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm:ss' (showTime), '' when empty. */
  start: string;
  end: string;
}

export interface TimeRangePickerProps {
  showTime?: boolean;
  /** Offer the calendar presets (last/this week, last/this month...). */
  includeOptional?: boolean;
  /** Default flags; when several are set the spec's default order decides. */
  defaults?: Partial<Record<PresetTag, boolean>>;
  onChange?: (v: TimeRangeValue) => void;
  /** Controlled value (e.g. as a Form.Item control); without it the picker keeps its own state. */
  value?: TimeRangeValue;
  /** Injected clock for tests. */
  now?: () => Dayjs;
}

/**
 * Spec §2/§4: a preset dropdown plus start and end pickers. Choosing a preset fills both ends;
 * clearing empties both; editing either date by hand resets the preset to 'please_select_time'.
 */
export function TimeRangePicker({ showTime = false, includeOptional = false, defaults = {}, onChange, value, now }: TimeRangePickerProps) {
  const { t } = useTranslation();
  const [ownPreset, setPreset] = useState<TimeRangeValue['preset']>(() => resolveDefault(defaults));
  const [ownRange, setRange] = useState(() => rangeOf(ownPreset, now?.()));
  const preset = value ? value.preset : ownPreset;
  const range = value ? parseRange(value) : ownRange;

  const emit = (p: TimeRangeValue['preset'], r: typeof range) => onChange?.({ preset: p, ...formatRange(r, showTime) });

  const choose = (p: TimeRangeValue['preset'] | undefined) => {
    const tag = p ?? PLEASE_SELECT_TIME;
    const r = rangeOf(tag, now?.());
    setPreset(tag);
    setRange(r);
    emit(tag, r);
  };
  const edit = (which: 'start' | 'end', d: Dayjs | null) => {
    const r = { ...range, [which]: d };
    setPreset(PLEASE_SELECT_TIME);
    setRange(r);
    emit(PLEASE_SELECT_TIME, r);
  };

  const options = [
    { value: PLEASE_SELECT_TIME, label: t(`preset.${PLEASE_SELECT_TIME}`) },
    ...presetsFor(includeOptional).map((p) => ({ value: p.tag, label: t(p.labelKey) })),
  ];
  const fmt = formatFor(showTime);
  return (
    <Space.Compact>
      <Select
        aria-label={t('time.preset')}
        style={{ width: 150 }}
        value={preset}
        options={options}
        allowClear={preset !== PLEASE_SELECT_TIME}
        onChange={(v) => choose(v)}
        onClear={() => choose(PLEASE_SELECT_TIME)}
        data-testid="preset-select"
      />
      <DatePicker
        aria-label={t('time.start')}
        placeholder={t('time.start')}
        showTime={showTime}
        format={fmt}
        value={range.start}
        onChange={(d) => edit('start', d)}
      />
      <DatePicker
        aria-label={t('time.end')}
        placeholder={t('time.end')}
        showTime={showTime}
        format={fmt}
        value={range.end}
        onChange={(d) => edit('end', d)}
      />
    </Space.Compact>
  );
}
