import { z } from 'zod';
import { Filter } from '../../query/filter.ts';
import { NodeCode } from '../function-node/index.ts';
import { BoardDefinition, Widget } from '../../report/model.ts';
import { ViewField } from '../view/index.ts';
import { SchemaCode } from '../form-design/index.ts';

// Reports and dashboards (issue 22). The spec names no calls for them (calls.md lists only the workbench's and
// /hasdashboard); docs/decisions/0044 chooses /v1/dashboard/* for the stored boards and /v1/report/data for the numbers.

/** GET /v1/dashboard/load?code=…: a report (220) or dashboard (270) node's board. */
export const BoardQuery = z.strictObject({ code: NodeCode });
export const BoardDto = z.object({
  code: z.string(),
  displayName: z.string(),
  nodeType: z.number().int(),
  appCode: z.string(),
  definition: BoardDefinition,
  /** The caller administers the node's app and may change the board. */
  canDesign: z.boolean(),
  modifiedTime: z.string().nullable(),
});
export type BoardDto = z.infer<typeof BoardDto>;

/** POST /v1/dashboard/save */
export const SaveBoardBody = z.strictObject({ code: NodeCode, definition: BoardDefinition });

/**
 * POST /v1/report/data: the numbers of one widget for the caller — within what they may see of its form. `filter`
 * is what the viewer adds at run time (board filters, a report's own run-time filter), AND-ed with the widget's.
 */
export const ReportDataBody = z.strictObject({ widget: Widget, filter: Filter.optional() });

export const ReportColumn = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(['dimension', 'measure']),
  /** The column's data type (registry names: datetime, user, unit, decimal…), for formatting and drill-down. */
  dataType: z.string(),
  dateGroup: z.string().optional(),
});
export const ReportDataResult = z.object({
  columns: z.array(ReportColumn),
  /** One row per group, dimension values first then measures (numbers or null). */
  rows: z.array(z.array(z.unknown())),
  /** Subtotal rows (first dimension's groups, when totals are on with two or more dimensions) and the total row. */
  subtotals: z.array(z.array(z.unknown())),
  /** Two dimensions with totals on: the second dimension's groups over every value of the first (a pivot's column totals). */
  columnTotals: z.array(z.array(z.unknown())),
  totals: z.array(z.unknown()).nullable(),
  /** Display names of the user and department ids among the dimension values. */
  labels: z.record(z.string(), z.string()),
  /** More groups than REPORT_LIMITS.rows (or top N) were cut. */
  truncated: z.boolean(),
  /** Number cards with a comparison: each measure in the current and the previous period. */
  comparison: z.object({ current: z.array(z.number().nullable()), previous: z.array(z.number().nullable()), from: z.string(), to: z.string() }).nullable(),
  /** Answered from the cache (the form's data unchanged since). */
  cached: z.boolean(),
  /** Read from the form's pre-aggregation, not by a scan of its table (docs/decisions/0074). */
  preAggregated: z.boolean().optional(),
});
export type ReportDataResult = z.infer<typeof ReportDataResult>;

/** GET /v1/report/fields?schemaCode=…: what a widget on the form may name — its fields and its sub-tables' columns. */
export const ReportFieldsQuery = z.strictObject({ schemaCode: SchemaCode });
export const ReportFieldsResult = z.object({
  /** Main-table and system fields; sub-table columns as `<gridCode>.<code>`. Hidden fields are left out. */
  fields: z.array(ViewField),
  grids: z.array(z.object({ code: z.string(), title: z.string() })),
});
export type ReportFieldsResult = z.infer<typeof ReportFieldsResult>;
