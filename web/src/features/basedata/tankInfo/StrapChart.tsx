import { LineChart } from 'echarts/charts';
import { GridComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useMemo } from 'react';
import { useEChart } from '../../../components/useEChart';
import { useTranslation } from 'react-i18next';
import type { EditRow, RowError } from './strap';

echarts.use([LineChart, GridComponent, TooltipComponent, MarkLineComponent, CanvasRenderer]);

/** The curve height → volume of a strapping table; wrong rows are drawn red; the nominal capacity as a line. */
export function StrapChart({ rows, errors, nominal, height = 260 }: { rows: EditRow[]; errors: RowError[]; nominal?: number | null; height?: number }) {
  const { t } = useTranslation();
  const option = useMemo(() => {
    const bad = new Set(errors.map((e) => e.row));
    const data = rows
      .map((r, i) => ({ r, i }))
      .filter(({ r }) => r.height !== null && r.volume !== null)
      .map(({ r, i }) => ({ value: [r.height, r.volume], itemStyle: bad.has(i + 1) ? { color: '#ff4d4f' } : undefined, symbolSize: bad.has(i + 1) ? 8 : 3 }));
    return {
      animation: false,
      grid: { left: 64, right: 24, top: 32, bottom: 40 },
      tooltip: {
        trigger: 'axis',
        formatter: (ps: { value: [number, number] }[]) => (ps[0] ? `${t('tankInfo.strapHeight')}: ${ps[0].value[0]}<br/>${t('tankInfo.strapVolume')}: ${ps[0].value[1]}` : ''),
      },
      xAxis: { type: 'value', name: t('tankInfo.axisHeight'), nameLocation: 'middle', nameGap: 26, min: 0, max: 'dataMax' },
      yAxis: { type: 'value', name: t('tankInfo.axisVolume'), min: 0 },
      series: [
        {
          type: 'line',
          data,
          showSymbol: true,
          lineStyle: { width: 2 },
          markLine: nominal
            ? { symbol: 'none', silent: true, lineStyle: { type: 'dashed', color: '#faad14' }, label: { formatter: t('tankInfo.nominalLine'), position: 'insideEndTop' }, data: [{ yAxis: nominal }] }
            : undefined,
        },
      ],
    };
  }, [rows, errors, nominal, t]);
  const box = useEChart(option);
  return <div ref={box} style={{ height, width: '100%' }} data-testid="strap-chart" data-points={rows.length} />;
}
