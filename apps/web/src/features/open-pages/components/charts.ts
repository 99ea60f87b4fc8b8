/**
 * The charts' options and tables, as pure functions of the dashboard's figures, for the light
 * dashboard and the dark work screen alike (`Look`).
 */
import type { Dashboard } from '@portal/contracts';
import type { Translate } from '../../../lib/i18n';
import type { ChartTable } from '../../../components/charts/echart';
import type { EChartsCoreOption } from '../../../components/charts/echarts';
import '../../../locales/devices';

export interface Look {
  dark: boolean;
  /** Base font size in px of axis labels and legends. */
  font: number;
  /** Whether the first drawing animates (the work screen draws at once; updates still animate). */
  enter: boolean;
}

/** Colours with at least 3:1 against white and against the work screen's navy. */
export const PALETTE = ['#1677ff', '#13a8a8', '#faad14', '#eb2f96', '#722ed1', '#52c41a', '#fa541c', '#2f54eb'];
const ONLINE = '#52c41a';
const OFFLINE = '#8c8c8c';

const text = (l: Look) => (l.dark ? '#d6e4ff' : 'rgba(0, 0, 0, 0.75)');
const line = (l: Look) => (l.dark ? 'rgba(214, 228, 255, 0.18)' : 'rgba(0, 0, 0, 0.1)');

function base(l: Look): EChartsCoreOption {
  return {
    color: PALETTE,
    textStyle: { fontSize: l.font, color: text(l) },
    tooltip: { confine: true, textStyle: { fontSize: Math.max(12, l.font - 2) } },
    animationDuration: l.enter ? 800 : 0,
    animationDurationUpdate: 600,
  };
}

const axis = (l: Look) => ({
  axisLabel: { color: text(l), fontSize: l.font },
  axisLine: { lineStyle: { color: line(l) } },
  splitLine: { lineStyle: { color: line(l) } },
});

/** `2026-05` as the axis shows it: `5月` / `May`. */
export function monthLabel(month: string, language: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(language, { month: 'short', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, 1));
}

export function registrationsChart(d: Dashboard, l: Look, t: Translate, language: string) {
  const labels = d.registrations.map((r) => monthLabel(r.month, language));
  const option: EChartsCoreOption = {
    ...base(l),
    tooltip: { ...(base(l).tooltip as object), trigger: 'axis' },
    grid: { left: 8, right: 16, top: 24, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: labels, boundaryGap: false, ...axis(l) },
    yAxis: { type: 'value', minInterval: 1, ...axis(l) },
    series: [
      {
        type: 'line',
        name: t('openPages.count'),
        data: d.registrations.map((r) => r.count),
        smooth: true,
        symbolSize: Math.round(l.font / 2),
        lineStyle: { width: Math.max(2, l.font / 6) },
        areaStyle: { opacity: 0.15 },
      },
    ],
  };
  const table: ChartTable = {
    head: [t('openPages.month'), t('openPages.count')],
    rows: d.registrations.map((r) => [r.month, r.count]),
  };
  return { option, table };
}

/** A donut of the sections; its legend wraps long names instead of cutting them. */
export function industryChart(
  d: Dashboard,
  l: Look,
  t: Translate,
  legendWidth: number,
  legendBelow: boolean,
  radius: [string, string] = ['45%', '72%'],
) {
  const data = d.enterprises.byIndustry.map((r) => ({ name: r.name, value: r.count }));
  const option: EChartsCoreOption = {
    ...base(l),
    tooltip: { ...(base(l).tooltip as object), trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: {
      type: 'scroll',
      orient: 'vertical',
      ...(legendBelow ? { left: 'center', bottom: 0, height: '40%' } : { right: 0, top: 'middle', height: '90%' }),
      textStyle: { color: text(l), fontSize: l.font, width: legendWidth, overflow: 'break', lineHeight: l.font * 1.3 },
      pageTextStyle: { color: text(l) },
      itemGap: Math.round(l.font / 2),
    },
    series: [
      {
        type: 'pie',
        name: t('openPages.byIndustry'),
        radius,
        center: legendBelow ? ['50%', '32%'] : ['25%', '50%'],
        label: { show: false },
        data,
      },
    ],
  };
  const table: ChartTable = {
    head: [t('openPages.category'), t('openPages.count')],
    rows: d.enterprises.byIndustry.map((r) => [r.name, r.count]),
  };
  return { option, table };
}

/** Horizontal bars, the largest on top. */
export function regionChart(d: Dashboard, l: Look, t: Translate) {
  const rows = [...d.enterprises.byRegion].reverse();
  const option: EChartsCoreOption = {
    ...base(l),
    tooltip: { ...(base(l).tooltip as object), trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1, ...axis(l) },
    yAxis: { type: 'category', data: rows.map((r) => r.name), ...axis(l) },
    series: [
      {
        type: 'bar',
        name: t('openPages.count'),
        data: rows.map((r) => r.count),
        barMaxWidth: l.font * 2,
        itemStyle: { color: PALETTE[1] },
        label: { show: true, position: 'right', color: text(l), fontSize: l.font },
      },
    ],
  };
  const table: ChartTable = {
    head: [t('openPages.category'), t('openPages.count')],
    rows: d.enterprises.byRegion.map((r) => [r.name, r.count]),
  };
  return { option, table };
}

/** Stacked bars by device type: online and offline. */
export function devicesChart(d: Dashboard, l: Look, t: Translate) {
  const types = d.devices.byType.map((r) => t(`devices.types.${r.type}`));
  const option: EChartsCoreOption = {
    ...base(l),
    tooltip: { ...(base(l).tooltip as object), trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, textStyle: { color: text(l), fontSize: l.font } },
    grid: { left: 8, right: 16, top: l.font * 2.5, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      data: types,
      ...axis(l),
      // Every type named: a long name wraps under its bar rather than hiding its neighbour's.
      axisLabel: { ...axis(l).axisLabel, interval: 0, overflow: 'break', width: l.font * 4.5 },
    },
    yAxis: { type: 'value', minInterval: 1, ...axis(l) },
    series: [
      {
        type: 'bar',
        stack: 'all',
        name: t('openPages.online'),
        data: d.devices.byType.map((r) => r.online),
        itemStyle: { color: ONLINE },
        barMaxWidth: l.font * 3,
      },
      {
        type: 'bar',
        stack: 'all',
        name: t('openPages.offline'),
        data: d.devices.byType.map((r) => r.total - r.online),
        itemStyle: { color: OFFLINE },
        barMaxWidth: l.font * 3,
      },
    ],
  };
  const table: ChartTable = {
    head: [t('openPages.category'), t('openPages.online'), t('openPages.total')],
    rows: d.devices.byType.map((r, i) => [types[i]!, r.online, r.total]),
  };
  return { option, table };
}
