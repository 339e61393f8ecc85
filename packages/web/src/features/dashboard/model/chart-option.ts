import type { Widget } from '@tritium/shared/report/index';
import type { ReportData } from '../api/dashboard-api.ts';
import { formatNumber, groupText } from './format.ts';

// A widget's numbers as an ECharts option (plain data: this file does not load ECharts). Each category, slice or point
// keeps the group values it stands for, so a click drills down to exactly those records.

/** The name the map widget's outlines are registered under (widgets/china-map.ts, loaded with the chart). */
export const CHINA_MAP = 'china';

export interface ChartContext {
  locale: string;
  words: { blank: string; yes: string; no: string };
  /** Series colours, the antd theme's first. */
  colors: string[];
  textColor: string;
  /** Map: the colour of a province with few records, and of one with none. */
  mapLow: string;
  mapEmpty: string;
  mapHover: string;
}

export interface ChartModel {
  option: Record<string, unknown>;
  /** The dimension values behind a click: by data index, and by series index when the second dimension makes series. */
  groupsOf: (dataIndex: number, seriesIndex: number) => unknown[] | undefined;
}

const distinct = (values: unknown[]) => {
  const seen = new Map<string, unknown>();
  for (const v of values) if (!seen.has(JSON.stringify(v))) seen.set(JSON.stringify(v), v);
  return [...seen.values()];
};

export function chartModel(widget: Widget, data: ReportData, ctx: ChartContext): ChartModel {
  const dims = data.columns.filter((c) => c.kind === 'dimension');
  const measures = data.columns.filter((c) => c.kind === 'measure');
  const d = dims.length;
  const text = (value: unknown, i: number) => groupText(value, dims[i], data.labels, ctx.words);
  const measureLabel = (i: number) => measures[i]?.label ?? '';
  const fmt = (i: number) => (v: number) => formatNumber(v, widget.measures[i]?.format, ctx.locale);
  const base = { color: ctx.colors, textStyle: { color: ctx.textColor }, animation: false };
  const none: ChartModel['groupsOf'] = () => undefined;

  if (widget.type === 'gauge') {
    const value = (data.rows[0]?.[d] as number | null) ?? 0;
    const max = widget.gaugeMax ?? (value > 0 ? Math.pow(10, Math.ceil(Math.log10(value * 1.2))) : 100);
    return {
      option: { ...base, series: [{ type: 'gauge', min: 0, max, progress: { show: true }, detail: { formatter: fmt(0), fontSize: 20 }, data: [{ value, name: measureLabel(0) }] }] },
      groupsOf: none,
    };
  }

  if (widget.type === 'map') {
    // Provinces coloured by the first measure; a record without an area is in no province and not drawn.
    const located = data.rows.filter((r) => r[0] != null);
    const max = Math.max(1, ...located.map((r) => (r[d] as number | null) ?? 0));
    const tip = (p: { name: string; value: number; data?: { regionName?: string } }) =>
      `${data.labels[p.name] ?? p.data?.regionName ?? p.name}<br/>${measureLabel(0)}: ${Number.isNaN(p.value) || p.value == null ? '-' : fmt(0)(p.value)}`;
    return {
      option: {
        ...base,
        tooltip: { trigger: 'item', formatter: tip },
        // A scale under the map, its ends named: no province sits under it.
        visualMap: { type: 'continuous', min: 0, max, orient: 'horizontal', left: 'center', bottom: 0, itemWidth: 10, itemHeight: 120, calculable: false, text: [fmt(0)(max), fmt(0)(0)], inRange: { color: [ctx.mapLow, ctx.colors[0]] }, textStyle: { color: ctx.textColor }, formatter: fmt(0) },
        series: [{
          type: 'map', map: CHINA_MAP, roam: false, top: 4, bottom: 36, selectedMode: false,
          label: { show: false }, emphasis: { label: { show: false }, itemStyle: { areaColor: ctx.mapHover } },
          itemStyle: { areaColor: ctx.mapEmpty, borderColor: '#ffffff' },
          data: located.map((r) => ({ name: String(r[0]), value: r[d] as number | null })),
        }],
      },
      groupsOf: (i) => (located[i] ? located[i]!.slice(0, d) : undefined),
    };
  }

  if (widget.type === 'pie' || widget.type === 'donut' || widget.type === 'funnel') {
    const slices = data.rows.map((r) => ({ name: text(r[0], 0), value: r[d] as number | null }));
    const series =
      widget.type === 'funnel'
        ? { type: 'funnel', left: '10%', width: '80%', sort: 'descending', label: { show: true, position: 'inside' }, data: slices }
        : { type: 'pie', radius: widget.type === 'donut' ? ['45%', '70%'] : '70%', center: ['50%', '55%'], label: { formatter: '{b}\n{d}%' }, data: slices };
    return {
      option: { ...base, tooltip: { trigger: 'item', valueFormatter: fmt(0) }, legend: { type: 'scroll', top: 0 }, series: [series] },
      groupsOf: (i) => (data.rows[i] ? data.rows[i]!.slice(0, d) : undefined),
    };
  }

  if (widget.type === 'scatter') {
    // Each group is a point: the first measure across, the second up.
    const points = data.rows.map((r) => ({ name: text(r[0], 0), value: [r[d], r[d + 1] ?? r[d]] }));
    return {
      option: {
        ...base,
        tooltip: { trigger: 'item', formatter: (p: { name: string; value: number[] }) => `${p.name}<br/>${measureLabel(0)}: ${fmt(0)(p.value[0]!)}<br/>${measureLabel(1) || measureLabel(0)}: ${fmt(1)(p.value[1]!)}` },
        grid: { left: 48, right: 24, top: 32, bottom: 32, containLabel: true },
        xAxis: { type: 'value', name: measureLabel(0), scale: true },
        yAxis: { type: 'value', name: measureLabel(1) || measureLabel(0), scale: true },
        series: [{ type: 'scatter', symbolSize: 12, data: points }],
      },
      groupsOf: (i) => (data.rows[i] ? data.rows[i]!.slice(0, d) : undefined),
    };
  }

  // bar, line, area: the first dimension along the axis; a second dimension makes a series per value, else each
  // measure is a series.
  const categories = distinct(data.rows.map((r) => r[0]));
  const kind = widget.type === 'bar' ? 'bar' : 'line';
  const area = widget.type === 'area' ? { areaStyle: { opacity: 0.25 } } : {};
  let series: Record<string, unknown>[];
  let groupsOf: ChartModel['groupsOf'];
  if (d >= 2) {
    const seriesValues = distinct(data.rows.map((r) => r[1]));
    series = seriesValues.map((sv) => ({
      type: kind,
      name: text(sv, 1),
      ...area,
      ...(widget.type === 'bar' ? { stack: 'total' } : {}),
      data: categories.map((c) => (data.rows.find((r) => JSON.stringify(r[0]) === JSON.stringify(c) && JSON.stringify(r[1]) === JSON.stringify(sv))?.[d] as number | null) ?? null),
    }));
    groupsOf = (i, s) => (i < categories.length && s < seriesValues.length ? [categories[i], seriesValues[s]] : undefined);
  } else {
    series = measures.map((_, mi) => ({ type: kind, name: measureLabel(mi), ...area, smooth: kind === 'line', data: data.rows.map((r) => r[d + mi] as number | null) }));
    groupsOf = (i) => (data.rows[i] ? data.rows[i]!.slice(0, d) : undefined);
  }
  return {
    option: {
      ...base,
      tooltip: { trigger: 'axis', valueFormatter: fmt(0) },
      legend: series.length > 1 ? { type: 'scroll', top: 0 } : undefined,
      grid: { left: 16, right: 16, top: series.length > 1 ? 36 : 16, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: categories.map((c) => text(c, 0)), axisLabel: { hideOverlap: true } },
      // The axis shows its own steps (1, 1.5, 2…) unless the measure fixes its decimals.
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => (widget.measures[0]?.format ? formatNumber(v, { ...widget.measures[0].format, unit: undefined }, ctx.locale) : new Intl.NumberFormat(ctx.locale).format(v)) } },
      series,
    },
    groupsOf,
  };
}
