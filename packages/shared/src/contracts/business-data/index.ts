import { z } from 'zod';
import { BIZ_OBJECT_STATUSES } from '../../constants/data-status.ts';
import { SchemaCode } from '../form-design/index.ts';
import { DataScopeSchema, Filter } from '../../query/filter.ts';

// Form runtime and business data (calls.md §7 "Business data": form/loaddata, form/action/execute, bizdata/*).
// The spec shows no payloads; docs/decisions/0007-business-data.md chooses them.

/** A record's id: a UUID (v7 when the server made it). */
export const BizObjectId = z.uuid();

/** Control code → value, in the registry's value format of each control type (null = empty). */
export const BizValues = z.record(z.string(), z.unknown());
export type BizValues = z.infer<typeof BizValues>;

/** One sub-table row: its ObjectId once saved, and its controls' values. */
export const BizChildRow = z.record(z.string(), z.unknown());

/** The data actions of domain.md §4 ("Form actions"); Print and Close read and change nothing. */
export const BIZ_EXECUTE_ACTIONS = ['Save', 'Submit', 'SubmitAndAdd', 'Remove', 'Copy', 'Print', 'Close'] as const;
export const BizActionCode = z.enum(BIZ_EXECUTE_ACTIONS);

export const LoadDataBody = z.strictObject({ schemaCode: SchemaCode, objectId: BizObjectId.optional() });

/** The system fields of a record (domain.md §3). */
export const BizSystemFields = z.object({
  ObjectId: z.string().nullable(),
  Name: z.string(),
  Status: z.number().int(),
  CreatedBy: z.string().nullable(),
  ModifiedBy: z.string().nullable(),
  OwnerId: z.string().nullable(),
  OwnerDeptId: z.string().nullable(),
  CreatedTime: z.string().nullable(),
  ModifiedTime: z.string().nullable(),
  SeqNo: z.string().nullable(),
  WorkflowInstanceId: z.string().nullable(),
});

export const LoadDataResult = z.object({
  schemaCode: z.string(),
  /** The published version the values follow. */
  version: z.number().int(),
  isNew: z.boolean(),
  values: BizValues,
  system: BizSystemFields,
  /** Sub-table code → rows in order, each with its ObjectId. */
  children: z.record(z.string(), z.array(BizChildRow)),
  status: z.number().int(),
  /** What the caller may do now: Save, Submit, Remove, Copy, Print, Close. */
  actions: z.array(z.string()),
  /** A workflow form: Submit starts the record's flow; a record in a flow is handled through its work items. */
  isWorkflow: z.boolean(),
  /**
   * The caller's fields that are not editable, by code (`Grid.Column` for a sub-table column): 'readonly' ones are
   * shown and not changed; 'hidden' ones are absent from values and rows (docs/decisions/0037).
   */
  fieldRights: z.record(z.string(), z.enum(['hidden', 'readonly'])).optional(),
});
export type LoadDataResult = z.infer<typeof LoadDataResult>;

export const ExecuteBody = z.strictObject({
  schemaCode: SchemaCode,
  actionCode: BizActionCode,
  objectId: BizObjectId.optional(),
  /** Control values; on an existing record only the codes present change. */
  values: BizValues.default(() => ({})),
  /** Sub-table code → the whole new list of rows (replaces the saved rows); absent codes keep their rows. */
  children: z.record(z.string(), z.array(BizChildRow)).optional(),
});

export const ExecuteResult = z.object({
  objectId: z.string().nullable(),
  status: z.number().int().nullable(),
  seqNo: z.string().nullable(),
  name: z.string().nullable(),
  /** Remove: whether a record was removed. */
  removed: z.boolean().optional(),
  /** Copy: the new record's id. */
  copiedFrom: z.string().optional(),
  /** What the form's server script answered the browser with (`ctx.respond`, docs/decisions/0118). */
  data: z.unknown().optional(),
});

export const BizFilter = z.strictObject({
  /** A column: a control code or a system field. */
  field: z.string().min(1).max(63),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
});

export const BizQueryBody = z.strictObject({
  schemaCode: SchemaCode,
  pageIndex: z.number().int().min(0).default(0),
  pageSize: z.union([z.literal(1), z.literal(5), z.literal(10), z.literal(20), z.literal(50), z.literal(100), z.literal(200), z.literal(500), z.literal(-1)]).default(20),
  /** Equality on columns (AND); kept for the form runtime, read as Equal / IsBlank leaves (docs/decisions/0013). */
  filters: z.array(BizFilter).max(20).optional(),
  /** The filter model (packages/shared/src/query): leaves and nested And/Or groups; AND-ed with `filters`. */
  filter: Filter.optional(),
  /** Data scope (domain.md §6): own, ownDept, relevant, ownAndRelevant, all (default), ownAndOwnDept. */
  scope: DataScopeSchema.optional(),
  /** Only these data statuses. */
  status: z.array(z.union(BIZ_OBJECT_STATUSES.map((s) => z.literal(s)) as [z.ZodLiteral<0>, z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>])).optional(),
  /** Only short text, date-time, int, bool and number columns sort (domain.md §5); others are a 777. */
  sort: z.array(z.strictObject({ field: z.string().min(1).max(63), direction: z.enum(['asc', 'desc']).default('asc') })).max(3).optional(),
});

/** A record of a list: system fields and main-table values keyed by code. */
export const BizRecord = z.record(z.string(), z.unknown());

export const BizQueryResult = z.object({ list: z.array(BizRecord), total: z.number().int(), hasMore: z.boolean() });

export const PropertyValueBody = z.strictObject({ schemaCode: SchemaCode, objectId: BizObjectId, propertyCode: z.string().min(1).max(63) });
export const PropertyValueResult = z.object({ value: z.unknown() });

/** At most 500 ids per call (h3yun LoadBizObjects cap). */
export const ByIdsBody = z.strictObject({ schemaCode: SchemaCode, objectIds: z.array(BizObjectId).min(1).max(500) });
export const ByIdsResult = z.object({ list: z.array(BizRecord) });

/** POST /v1/bizdata/owner/change: records get a new owner (修改拥有者) and the owner's main department. */
export const ChangeOwnerBody = z.strictObject({ schemaCode: SchemaCode, objectIds: z.array(BizObjectId).min(1).max(500), ownerId: z.string().trim().min(1).max(64) });
export type ChangeOwnerBody = z.input<typeof ChangeOwnerBody>;
export const ChangeOwnerResult = z.object({ changed: z.number().int() });

export const DataLogListBody = z.strictObject({ schemaCode: SchemaCode, objectId: BizObjectId });
export const DataLogChange = z.object({ code: z.string(), from: z.unknown(), to: z.unknown() });
export const DataLogListResult = z.object({
  list: z.array(z.object({ id: z.string(), userId: z.string(), time: z.string(), changes: z.array(DataLogChange) })),
});
export type ExecuteResultOutput = z.infer<typeof ExecuteResult>;
export type BizQueryResult = z.infer<typeof BizQueryResult>;
export * from './links.ts';
export * from './phone-sign.ts';
