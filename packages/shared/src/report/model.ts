/**
 * Reports and dashboards (issue 22; docs/decisions/0044-reports-and-dashboards.md): the definition a report node (220)
 * or a dashboard node (270) stores. A board is a grid of widgets; a data widget reads one form (or one of its
 * sub-tables) through dimensions and measures that the server compiles to one GROUP BY. Conditions are the filter
 * model's (../query), nothing of its own.
 */
import { z } from 'zod';
import { Filter, FilterField, FilterValue } from '../query/filter.ts';

/** What a widget draws. Text and link widgets read no data. */
export const WIDGET_TYPES = ['number', 'bar', 'line', 'area', 'pie', 'donut', 'funnel', 'gauge', 'scatter', 'map', 'table', 'pivot', 'text', 'link'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
/** Widgets that draw no data from a form. */
export const STATIC_WIDGET_TYPES: readonly WidgetType[] = ['text', 'link'];
/** Widgets drawn with ECharts (a category axis or slices: the first dimension is the category). */
export const CHART_WIDGET_TYPES: readonly WidgetType[] = ['bar', 'line', 'area', 'pie', 'donut', 'funnel', 'gauge', 'scatter', 'map'];
/**
 * The data type a widget's first dimension must have, where a type needs one: a map colours China's provinces by an
 * area field (an address dimension groups by the province of its adcode).
 */
export const WIDGET_DIMENSION_TYPE: Partial<Record<WidgetType, 'address'>> = { map: 'address' };

/** How a date dimension is grouped (calendar of Asia/Shanghai, the zone the product shows dates in). */
export const DATE_GROUPS = ['year', 'quarter', 'month', 'week', 'day'] as const;
export type DateGroup = (typeof DATE_GROUPS)[number];

/** Aggregates of a measure; `count` needs no field (records, or sub-table rows). */
export const MEASURE_AGGREGATES = ['count', 'sum', 'avg', 'max', 'min', 'distinct'] as const;
export type MeasureAggregate = (typeof MEASURE_AGGREGATES)[number];

/** Limits of one widget and one board. */
export const REPORT_LIMITS = {
  dimensions: 3,
  measures: 8,
  widgets: 40,
  filters: 10,
  /** Rows a widget answers at most (groups beyond are cut and `truncated` is set). */
  rows: 1000,
  topN: 1000,
  /** Auto refresh: 0 (off) or at least this many seconds. */
  minRefreshSeconds: 30,
  maxRefreshSeconds: 86400,
  /** The deepest department level a dimension rolls up to. */
  departmentLevels: 10,
  /** Grid columns of the PC layout. */
  columns: 12,
} as const;

const Label = z.string().trim().max(50, '名称最多50个字符');

export const ReportDimension = z.strictObject({
  /** A main-table field or system field, or `<gridCode>.<code>` on a sub-table widget. */
  field: FilterField,
  /** Date fields only: the calendar unit the values are grouped by (default day). */
  dateGroup: z.enum(DATE_GROUPS).optional(),
  /**
   * Department fields only: each department counts under its ancestor at this level of the tree (1: the departments
   * right under the company); departments at or above the level count as themselves.
   */
  departmentLevel: z.number().int().min(1).max(REPORT_LIMITS.departmentLevels).optional(),
  label: Label.optional(),
});
export type ReportDimension = z.infer<typeof ReportDimension>;

export const NumberFormat = z.strictObject({
  /** Decimal places shown. */
  decimals: z.number().int().min(0).max(6).default(0),
  /** Thousands separators. */
  thousands: z.boolean().default(true),
  /** Show ×100 with a % sign. */
  percent: z.boolean().default(false),
  /** A unit after the number (元, 件, kg…). */
  unit: z.string().trim().max(10, '单位最多10个字符').optional(),
});
export type NumberFormat = z.infer<typeof NumberFormat>;

export const ReportMeasure = z
  .strictObject({
    aggregate: z.enum(MEASURE_AGGREGATES),
    /** The column; absent for a count of records (or sub-table rows). */
    field: FilterField.optional(),
    label: Label.optional(),
    format: NumberFormat.optional(),
  })
  .refine((m) => m.aggregate === 'count' || m.field, { error: '该汇总方式需要选择字段', path: ['field'] });
export type ReportMeasure = z.infer<typeof ReportMeasure>;

export const ReportSort = z.strictObject({
  by: z.enum(['dimension', 'measure']),
  index: z.number().int().min(0).max(REPORT_LIMITS.measures - 1),
  direction: z.enum(['asc', 'desc']),
});
export type ReportSort = z.infer<typeof ReportSort>;

/** Where a data widget reads: a form, or one of its sub-tables (every row of it, with its record's fields). */
export const ReportSource = z.strictObject({
  schemaCode: z.string().min(1).max(64),
  gridCode: z.string().min(1).max(63).optional(),
  /**
   * Count records of every data status (drafts, in flow, cancelled). Absent: only Effective records count, unless the
   * widget groups or filters by Status itself (widgetStatuses).
   */
  includeDrafts: z.boolean().optional(),
});
export type ReportSource = z.infer<typeof ReportSource>;

export const COMPARE_PERIODS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type ComparePeriod = (typeof COMPARE_PERIODS)[number];

/** Grid position in columns (of REPORT_LIMITS.columns) and rows of 40 px. */
export const WidgetLayout = z.strictObject({
  x: z.number().int().min(0).max(REPORT_LIMITS.columns - 1),
  y: z.number().int().min(0).max(1000),
  w: z.number().int().min(1).max(REPORT_LIMITS.columns),
  h: z.number().int().min(1).max(40),
});
export type WidgetLayout = z.infer<typeof WidgetLayout>;

export const Widget = z.strictObject({
  id: z.string().min(1).max(32).regex(/^[A-Za-z0-9_-]+$/, '无效的组件 id'),
  type: z.enum(WIDGET_TYPES),
  title: Label.default(''),
  layout: WidgetLayout,
  source: ReportSource.optional(),
  dimensions: z.array(ReportDimension).max(REPORT_LIMITS.dimensions).default([]),
  measures: z.array(ReportMeasure).max(REPORT_LIMITS.measures).default([]),
  filter: Filter.optional(),
  sort: ReportSort.optional(),
  topN: z.number().int().min(1).max(REPORT_LIMITS.topN).optional(),
  /** Tables and pivots: a total row (and subtotals per first dimension with two or more dimensions). */
  totals: z.boolean().default(false),
  /** Number cards: compare the current period with the previous one, by this date field. */
  compare: z.strictObject({ dateField: FilterField, period: z.enum(COMPARE_PERIODS) }).optional(),
  /** Gauges: the value at the end of the dial. */
  gaugeMax: z.number().positive().optional(),
  /** Text widgets: plain text with line breaks. Link widgets: the caption. */
  text: z.string().max(2000).optional(),
  /** Link widgets: an http(s) address or a path inside the platform. */
  url: z
    .string()
    .max(500)
    .regex(/^(https?:\/\/|\/)/, '链接需以 http://、https:// 或 / 开头')
    .optional(),
});
export type Widget = z.infer<typeof Widget>;

/** A dashboard-wide filter: date range, department, or any field the bound widgets share. */
export const BOARD_FILTER_KINDS = ['dateRange', 'department', 'field'] as const;
export type BoardFilterKind = (typeof BOARD_FILTER_KINDS)[number];

export const BoardFilter = z.strictObject({
  id: z.string().min(1).max(32).regex(/^[A-Za-z0-9_-]+$/, '无效的筛选 id'),
  kind: z.enum(BOARD_FILTER_KINDS),
  label: Label.min(1, '请填写筛选名称'),
  /** Each bound widget with the field of its source the value applies to. */
  bindings: z.array(z.strictObject({ widgetId: z.string().min(1).max(32), field: FilterField })).max(REPORT_LIMITS.widgets),
});
export type BoardFilter = z.infer<typeof BoardFilter>;

export const BoardDefinition = z
  .strictObject({
    widgets: z.array(Widget).max(REPORT_LIMITS.widgets, `组件最多${REPORT_LIMITS.widgets}个`).default([]),
    filters: z.array(BoardFilter).max(REPORT_LIMITS.filters, `筛选最多${REPORT_LIMITS.filters}个`).default([]),
    /** Seconds between automatic refreshes; 0 is off. */
    refreshSeconds: z
      .number()
      .int()
      .refine((s) => s === 0 || (s >= REPORT_LIMITS.minRefreshSeconds && s <= REPORT_LIMITS.maxRefreshSeconds), { error: `自动刷新间隔为 0（关闭）或 ${REPORT_LIMITS.minRefreshSeconds}–${REPORT_LIMITS.maxRefreshSeconds} 秒` })
      .default(0),
  })
  .superRefine((board, ctx) => {
    const ids = new Set<string>();
    board.widgets.forEach((w, i) => {
      if (ids.has(w.id)) ctx.addIssue({ code: 'custom', path: ['widgets', i, 'id'], message: '组件 id 不能重复' });
      ids.add(w.id);
    });
    board.filters.forEach((f, i) =>
      f.bindings.forEach((b, j) => {
        if (!ids.has(b.widgetId)) ctx.addIssue({ code: 'custom', path: ['filters', i, 'bindings', j, 'widgetId'], message: '筛选绑定的组件不存在' });
      }),
    );
  });
export type BoardDefinition = z.infer<typeof BoardDefinition>;

/** A value of a board filter as the viewer sets it: a date range [from, to] (yyyy-mm-dd), department ids, or values. */
export const BoardFilterValue = FilterValue;
