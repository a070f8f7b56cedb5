import { fireEvent, render, screen, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import '../i18n';
import { TimeRangePicker, type TimeRangeValue } from './TimeRangePicker';

const now = () => dayjs('2026-03-18 15:30:00');

function selectedPresetText(container: HTMLElement) {
  return container.querySelector('.ant-select-selection-item')?.textContent;
}

describe('TimeRangePicker', () => {
  it('resolves the default by the spec order and fills both dates', () => {
    const { container } = render(<TimeRangePicker defaults={{ today: true, last_7_days: true }} now={now} />);
    expect(selectedPresetText(container)).toBe('最近7天');
    const inputs = container.querySelectorAll('input[placeholder]');
    expect((inputs[0] as HTMLInputElement).value).toBe('2026-03-11');
    expect((inputs[1] as HTMLInputElement).value).toBe('2026-03-18');
  });

  it('choosing a preset fills start and end; with time the format has seconds', () => {
    const onChange = vi.fn<(v: TimeRangeValue) => void>();
    const { container } = render(<TimeRangePicker showTime now={now} onChange={onChange} />);
    expect(selectedPresetText(container)).toBe('请选择时间');
    fireEvent.mouseDown(container.querySelector('.ant-select-selector')!);
    fireEvent.click(within(document.body).getByTitle('昨天'));
    expect(onChange).toHaveBeenLastCalledWith({ preset: 'yesterday', start: '2026-03-17 00:00:00', end: '2026-03-17 23:59:59' });
  });

  it('clearing a date by hand resets the preset to please_select_time', () => {
    const onChange = vi.fn<(v: TimeRangeValue) => void>();
    const { container } = render(<TimeRangePicker defaults={{ today: true }} now={now} onChange={onChange} />);
    const clear = container.querySelectorAll('.ant-picker-clear')[0];
    fireEvent.mouseDown(clear);
    fireEvent.mouseUp(clear);
    fireEvent.click(clear);
    expect(onChange).toHaveBeenLastCalledWith({ preset: 'please_select_time', start: '', end: '2026-03-18' });
    expect(selectedPresetText(container)).toBe('请选择时间');
    expect(screen.getAllByPlaceholderText('开始时间')[0]).toHaveProperty('value', '');
  });
});
