import { z } from 'zod';
import { SchemaCode } from '../form-design/index.ts';

// Data links, association lists and fills (calls.md §7 "Business data": /v1/form/loaddatalink/batch and the
// association list endpoints; docs/decisions/0016-data-links-and-associations.md chooses the payloads).

/** A control of the form: `Code` in the main table, `Grid.Code` for a sub-table column. */
const ControlPath = z.string().min(1).max(127).regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/, '控件编码无效');

/** The values a call reads conditions from: this form's fields (a sub-table's by `Grid`) as the runtime holds them. */
const FormState = z.record(z.string(), z.unknown());

export const DATA_LINK_BATCH_MAX = 100;

/**
 * POST /v1/form/loaddatalink/batch: several data links at once. Each item names a control of `schemaCode` that has a
 * data link and gives the values of its condition fields (this form's codes; a sub-table row's own columns for a
 * sub-table control).
 */
export const DataLinkBatchBody = z.strictObject({
  schemaCode: SchemaCode,
  items: z.array(z.strictObject({ controlCode: ControlPath, values: FormState })).min(1).max(DATA_LINK_BATCH_MAX),
});
export const DataLinkBatchResult = z.object({
  /** In the order asked: the linked value (null when a condition is empty, nothing matches, or the source form is closed to the caller). */
  list: z.array(z.object({ controlCode: z.string(), value: z.unknown(), objectId: z.string().nullable() })),
});

/** POST /v1/form/association/list: the records an association control offers, within its data range. */
export const AssociationListBody = z.strictObject({
  schemaCode: SchemaCode,
  controlCode: ControlPath,
  /** This form's values, for `{this.Code}` in the data range; a sub-table association's row in `row`. */
  values: FormState.default(() => ({})),
  row: FormState.optional(),
  /** Searches the records' titles (Contains). */
  keyword: z.string().trim().max(200).optional(),
  pageIndex: z.number().int().min(0).default(0),
  pageSize: z.union([z.literal(10), z.literal(20), z.literal(50), z.literal(100)]).default(20),
});
export const AssociationListResult = z.object({ list: z.array(z.record(z.string(), z.unknown())), total: z.number().int(), hasMore: z.boolean() });

/**
 * POST /v1/form/association/fill: what choosing records in an association fills: its mapped fields (关联填充) and the
 * associated properties that read through it. `objectIds` empty = cleared (everything it filled becomes empty).
 */
export const AssociationFillBody = z.strictObject({
  schemaCode: SchemaCode,
  controlCode: ControlPath,
  objectIds: z.array(z.uuid()).max(500),
});
export const AssociationFillResult = z.object({
  /** Mapped fields of this form (same table as the association) → their new values. */
  values: z.record(z.string(), z.unknown()),
  /** Associated property controls reading through this association → the value shown. */
  properties: z.record(z.string(), z.unknown()),
  /** The chosen records' titles, by id (for the picker). */
  names: z.record(z.string(), z.string()),
});

export type DataLinkBatchResult = z.infer<typeof DataLinkBatchResult>;
export type AssociationListResult = z.infer<typeof AssociationListResult>;
export type AssociationFillResult = z.infer<typeof AssociationFillResult>;
