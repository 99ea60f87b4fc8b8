import type { WidgetOf } from '@portal/contracts';
import { useMemo } from 'react';
import { EChart } from '../../../components/charts/echart';
import type { EChartsCoreOption } from '../../../components/charts/echarts';
import { useTranslation } from '../../../lib/i18n';
import { useLocalText } from './language';

const PALETTE = ['#1677ff', '#13a8a8', '#faad14', '#eb2f96', '#722ed1', '#52c41a', '#fa541c', '#2f54eb'];

/** A chart widget's figures as a bar, line or pie chart (ECharts, loaded with the first chart). */
export function ChartWidget({ props, label }: { props: WidgetOf<'chart'>['props']; label: string }) {
  const { t } = useTranslation();
  const text = useLocalText();
  const labels = props.points.map((p) => text(p.label));
  const values = props.points.map((p) => p.value);
  const option = useMemo<EChartsCoreOption>(() => {
    const base = { color: PALETTE, tooltip: { confine: true, trigger: props.type === 'pie' ? 'item' : 'axis' } };
    if (props.type === 'pie') {
      return {
        ...base,
        legend: { type: 'scroll', bottom: 0 },
        series: [
          {
            type: 'pie',
            radius: ['35%', '65%'],
            center: ['50%', '45%'],
            label: { show: false },
            data: labels.map((name, i) => ({ name, value: values[i] })),
          },
        ],
      };
    }
    return {
      ...base,
      grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: labels },
      yAxis: { type: 'value' },
      series: [{ type: props.type, data: values, smooth: true }],
    };
    // The texts and figures decide the chart; `labels`/`values` are new arrays every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.type, JSON.stringify(labels), JSON.stringify(values)]);
  return (
    <EChart
      className="dp-chart"
      option={option}
      label={label || t('dragPage.kinds.chart')}
      table={{ head: [t('dragPage.category'), t('dragPage.value')], rows: labels.map((l, i) => [l, values[i]!]) }}
    />
  );
}
