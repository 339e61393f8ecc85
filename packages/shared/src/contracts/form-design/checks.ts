import { z } from 'zod';
import { CONTROL_TYPE_KEYS } from '../../controls/types.ts';
import { NodeCode } from '../function-node/index.ts';

// Designer checks (calls.md §7 "Form design": incomplete, checktreestructure, associationform/field, seqno reset and
// info). Shapes chosen in docs/decisions/0006-form-design.md.

const SchemaCodeBody = z.strictObject({ schemaCode: NodeCode });

/** POST /v1/formdesign/incomplete {schemaCode}: controls of the draft that still miss required settings. */
export const IncompleteBody = SchemaCodeBody;
export const IncompleteResult = z.object({
  list: z.array(
    z.object({
      code: z.string(),
      type: z.enum(CONTROL_TYPE_KEYS),
      displayName: z.string(),
      /** The sub-table holding the control, when it is a sub-table column. */
      gridCode: z.string().optional(),
      /** Option keys still to set, e.g. ["schemaCode"] for an association query without its target form. */
      missing: z.array(z.string()),
    }),
  ),
  /** Form attributes still to set, e.g. ["treeStructureControlCode"] when tree display is on without a control. */
  attributes: z.array(z.string()),
});
export type IncompleteResult = z.infer<typeof IncompleteResult>;

export const TREE_STRUCTURE_PROBLEMS = ['noControl', 'notAssociation', 'otherForm', 'notPublished', 'tooManyRecords', 'tooDeep', 'cycle'] as const;

/**
 * POST /v1/formdesign/checktreestructure {schemaCode, parentCode?}: can the draft's tree display work? The tree control must be a
 * single association query of the main table pointing to this same form; the published rows must fit 10 levels and
 * 10,000 records (TREE_FORM_LIMITS) and hold no cycle.
 */
export const CheckTreeStructureBody = z.strictObject({
  schemaCode: NodeCode,
  /** The parent control to check instead of the draft's saved one (the designer asks before saving the switch). */
  parentCode: z.string().trim().min(1).max(63).optional(),
});
export const CheckTreeStructureResult = z.object({
  valid: z.boolean(),
  problem: z.enum(TREE_STRUCTURE_PROBLEMS).optional(),
  message: z.string().optional(),
  /** Rows of the published table, and the deepest level found (0 when not published). */
  records: z.number().int(),
  levels: z.number().int(),
});
export type CheckTreeStructureResult = z.infer<typeof CheckTreeStructureResult>;

/** One published field of a form, as association setup offers it. */
export const AssociationField = z.object({
  code: z.string(),
  displayName: z.string(),
  controlType: z.number().int(),
  typeKey: z.string(),
  dataType: z.string(),
  /** A system column (Name, CreatedBy, …) rather than a control. */
  isSystem: z.boolean(),
});

/** POST /v1/formdesign/associationform/field {schemaCode}: the published data fields of another form (main table). */
export const AssociationFormFieldBody = SchemaCodeBody;
export const AssociationFormFieldResult = z.object({
  schemaCode: z.string(),
  displayName: z.string(),
  fields: z.array(AssociationField),
  /** Sub-tables, each with its own fields. */
  childSchemas: z.array(z.object({ code: z.string(), displayName: z.string(), fields: z.array(AssociationField) })),
});

/** POST /v1/formdesign/seqno/info {schemaCode}: the sequence-number counters of a form. */
export const SeqNoInfoBody = SchemaCodeBody;
export const SeqNoInfoResult = z.object({
  list: z.array(
    z.object({
      controlCode: z.string(),
      /** The period the counter belongs to: '' (never reset), or yyyy / yyyymm / yyyymmdd for periodic resets. */
      period: z.string(),
      /** The last number given out; the next record gets value + 1. */
      value: z.number().int(),
    }),
  ),
  /** The seqNo control of the published form, if any, and how it resets. */
  control: z.object({ code: z.string(), resetMode: z.string() }).nullable(),
});
/** POST /v1/formdesign/seqno/reset {schemaCode, controlCode}: the next record starts again at 1. */
export const SeqNoResetBody = z.strictObject({ schemaCode: NodeCode, controlCode: z.string().trim().min(1).max(63) });
export const SeqNoResetResult = z.object({ removed: z.number().int() });
