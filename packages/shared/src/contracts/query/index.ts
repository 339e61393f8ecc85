import { z } from 'zod';
import { DataScopeSchema, Filter } from '../../query/filter.ts';
import { BizFilter } from '../business-data/index.ts';
import { SchemaCode } from '../form-design/index.ts';
import { BIZ_OBJECT_STATUSES } from '../../constants/data-status.ts';

// The query engine's other calls (calls.md §7: /v1/bizdata/column/stat, /v1/bizdata/distinctPropertyValue); the spec
// shows no payloads, docs/decisions/0013-query-engine.md chooses them. POST /v1/bizdata/query is BizQueryBody.

/** What narrows the records: the same fields as bizdata/query. */
const narrowing = {
  schemaCode: SchemaCode,
  filter: Filter.optional(),
  filters: z.array(BizFilter).max(20).optional(),
  status: z.array(z.union(BIZ_OBJECT_STATUSES.map((s) => z.literal(s)) as [z.ZodLiteral<0>, z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>])).optional(),
  scope: DataScopeSchema.optional(),
};

export const ColumnStatBody = z.strictObject({
  ...narrowing,
  /** A number column of the main table, or `<gridCode>.<code>` of a sub-table (over the rows of matching records). */
  field: z.string().min(1).max(127),
});
export const ColumnStatResult = z.object({
  /** Values present (not blank). */
  count: z.number().int(),
  sum: z.number(),
  avg: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
});
export type ColumnStatResult = z.infer<typeof ColumnStatResult>;

export const DistinctValueBody = z.strictObject({
  ...narrowing,
  /** A main-table column; multi-value columns list their items. */
  field: z.string().min(1).max(63),
  pageIndex: z.number().int().min(0).default(0),
  pageSize: z.union([z.literal(1), z.literal(5), z.literal(10), z.literal(20), z.literal(50), z.literal(100), z.literal(200), z.literal(500), z.literal(-1)]).default(50),
});
export const DistinctValueResult = z.object({
  /** Non-blank values in ascending order, each with the number of records (or list items) holding it. */
  list: z.array(z.object({ value: z.unknown(), count: z.number().int() })),
  total: z.number().int(),
  hasMore: z.boolean(),
});
export type DistinctValueResult = z.infer<typeof DistinctValueResult>;

/**
 * POST /v1/bizdata/count: how many records the narrowing holds, from a count statement alone — no page is read
 * (docs/decisions/0119). The same narrowing as bizdata/query, so a list's total and its count agree.
 */
export const BizCountBody = z.strictObject(narrowing);
export const BizCountResult = z.object({ total: z.number().int() });
export type BizCountResult = z.infer<typeof BizCountResult>;
