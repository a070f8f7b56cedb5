import { BarChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { StatKind, StatRow } from '../../../api/tripStats';
import { useEChart } from '../../../components/useEChart';
import { chartOption } from './model';

echarts.use([BarChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** The top ten by shipped V20 with their loss (cars, companies), or each product's share of V20. */
export function StatChart({ kind, top }: { kind: StatKind; top: readonly StatRow[] }) {
  const { t } = useTranslation();
  const option = useMemo(
    () => chartOption(kind, top, { v20: t('tripStats.shippedV20'), loss: t('tripStats.lossL'), share: t('tripStats.share') }),
    [kind, top, t],
  );
  const box = useEChart(option);
  return <div ref={box} style={{ height: 340, width: '100%' }} data-testid="stat-chart" />;
}
