import { z } from 'zod';
import { CONTROL_DEPENDENCY_KINDS, FORM_CONTAINER_MODES, FORM_MODAL_DEFAULT_SIZE, SUB_TABLE_ROW_FIELDS } from '../../constants/form.ts';
import { ControlDefinition, checkFormControls } from '../../controls/control-definition.ts';
import { NodeCode, NodeName } from '../function-node/index.ts';
import { SubmitRules } from '../../formula/submit-rules.ts';

// Form designer and schema publishing (domain.md §3 "Form attributes", calls.md §7 "formdesign"). The spec shows no
// methods or payloads for these calls; docs/decisions/0006-form-design.md chooses them.

/** A form's schema code is its function node's code (a form or workflow node, 200/210/240). */
export const SchemaCode = NodeCode;

/** Form attributes (domain.md §3), less appCode/schemaCode which the node carries, plus the runtime container. */
export const FormAttributes = z.strictObject({
  displayName: NodeName,
  summary: z.string().trim().max(200, '说明最多200个字符').default(''),
  enableFormSNS: z.boolean().default(false),
  enableTask: z.boolean().default(false),
  enableDataLog: z.boolean().default(true),
  enableDataAcl: z.boolean().default(false),
  /** How a record's name (the Name column) is built: control codes in braces and literal text, e.g. "{F0001}-{SeqNo}". */
  nameSchema: z.string().trim().max(200, '数据标题规则最多200个字符').default(''),
  isTreeStructure: z.boolean().default(false),
  /** The association-query control (to this same form) that gives each record its parent. */
  treeStructureControlCode: z.string().trim().max(63).default(''),
  pcVisible: z.boolean().default(true),
  mobileVisible: z.boolean().default(true),
  /** Width of control titles on PC, in px. */
  titleWidth: z.number().int().min(40).max(400).default(120),
  containerMode: z.enum(FORM_CONTAINER_MODES).default('Modal'),
  modalWidth: z.number().int().min(320).max(2000).default(FORM_MODAL_DEFAULT_SIZE.width),
  modalHeight: z.number().int().min(200).max(2000).default(FORM_MODAL_DEFAULT_SIZE.height),
  /** Submit rules (提交校验): conditions that refuse Submit with a message or hide the button (docs/decisions/0016). */
  submitRules: SubmitRules,
});
export type FormAttributes = z.infer<typeof FormAttributes>;

const subTableRowFields = new Set(SUB_TABLE_ROW_FIELDS.map((f) => f.toLowerCase()));

/**
 * The control tree as a whole: each control by the registry (ControlDefinition), then the designer's drop checks
 * (placement, one per form, upper limits such as 7 maps), codes unique per table, and sub-table codes clear of the
 * sub-table row columns.
 */
const FormControls = z
  .array(ControlDefinition)
  .max(5000, '控件过多')
  .superRefine((controls, ctx) => {
    for (const problem of checkFormControls(controls)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    controls.forEach((control, index) =>
      control.controls?.forEach((child, childIndex) => {
        if (control.type === 'gridView' && subTableRowFields.has(child.code.toLowerCase())) {
          ctx.addIssue({ code: 'custom', path: [index, 'controls', childIndex, 'code'], message: `子表控件不能使用编码${child.code}` });
        }
      }),
    );
  });

/** What the designer edits and saves: attributes and the control tree (checked by the control registry). */
export const FormDefinition = z.strictObject({
  attributes: FormAttributes,
  controls: FormControls,
});
export type FormDefinition = z.infer<typeof FormDefinition>;
export type FormDefinitionInput = z.input<typeof FormDefinition>;

export const FormDefinitionVersion = z.object({
  definition: FormDefinition,
  /** Increases by one on every save. */
  version: z.number().int(),
  savedTime: z.string(),
});

/** POST /v1/formdesign/load {schemaCode}: the draft (created with the node's name on first load) and the published version. */
export const FormDesignLoadBody = z.strictObject({ schemaCode: SchemaCode });
export const FormDesignLoadResult = z.object({
  schemaCode: z.string(),
  appCode: z.string(),
  nodeType: z.number().int(),
  draft: FormDefinitionVersion,
  published: FormDefinitionVersion.extend({ publishedTime: z.string() }).nullable(),
  /** The draft differs from what is published. */
  hasUnpublishedChanges: z.boolean(),
});
export type FormDesignLoadResult = z.infer<typeof FormDesignLoadResult>;

/** POST /v1/formdesign/save: the draft; baseVersion is the version the designer loaded (a stale one is refused). */
export const FormDesignSaveBody = z.strictObject({ schemaCode: SchemaCode, baseVersion: z.number().int().min(0), definition: FormDefinition });
export type FormDesignSaveBody = z.input<typeof FormDesignSaveBody>;
export const FormDesignSaveResult = z.object({ version: z.number().int(), savedTime: z.string() });

/** What publishing would do to the table, column by column. */
export const SchemaChange = z.object({
  kind: z.enum(['createTable', 'addColumn', 'dropColumn', 'changeType', 'createChildTable', 'dropChildTable', 'createIndex', 'dropIndex', 'renameColumn']),
  /** What to send back in `confirm` to accept this change: "table.column", or the table for a whole table. */
  key: z.string(),
  /** The physical table (i_… in the engine schema). */
  table: z.string(),
  /** The sub-table (grid view) control the table belongs to; absent for the main table. */
  gridCode: z.string().optional(),
  column: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  /** Rows holding a value that would be lost (drop) or could not be converted (type change). */
  affectedRows: z.number().int().optional(),
  /** True when data would be lost without the person's confirmation. */
  needsConfirmation: z.boolean(),
});
export type SchemaChange = z.infer<typeof SchemaChange>;
/** detail of FormPublishNeedsConfirmation (240003): the whole plan and the keys still to confirm. */
export const PublishConfirmationDetail = z.object({ changes: z.array(SchemaChange), unconfirmed: z.array(z.string()) });

/**
 * POST /v1/formdesign/publish {schemaCode, version, confirm?}: applies the saved draft `version` to the table in one
 * transaction. Changes that lose data are refused (error with detail.changes) unless their "table.column" is in confirm.
 */
export const FormDesignPublishBody = z.strictObject({
  schemaCode: SchemaCode,
  version: z.number().int().min(1),
  confirm: z.array(z.string().max(200)).max(500).default([]),
  /** Only compute the changes (nothing is applied). */
  dryRun: z.boolean().default(false),
});
export type FormDesignPublishBody = z.input<typeof FormDesignPublishBody>;
export const FormDesignPublishResult = z.object({ publishedVersion: z.number().int(), publishedTime: z.string().nullable(), changes: z.array(SchemaChange), applied: z.boolean() });
export type FormDesignPublishResult = z.infer<typeof FormDesignPublishResult>;

/** POST /v1/formdesign/checkcodeavailable: a control code inside the form's draft, or (no schemaCode) a new schema code in the engine. */
export const CheckCodeAvailableBody = z.strictObject({ schemaCode: SchemaCode.optional(), code: z.string().trim().min(1).max(64) });
export const CheckCodeAvailableResult = z.object({ available: z.boolean(), reason: z.string().optional() });

/** POST /v1/formdesign/checkreference {schemaCode, controlCode}: what depends on a control (shown before it is removed). */
export const CheckReferenceBody = z.strictObject({ schemaCode: SchemaCode, controlCode: z.string().trim().min(1).max(63) });
export const ControlReference = z.object({ kind: z.enum(CONTROL_DEPENDENCY_KINDS), schemaCode: z.string(), name: z.string(), detail: z.string().optional() });
export type ControlReference = z.infer<typeof ControlReference>;
export const CheckReferenceResult = z.object({ references: z.array(ControlReference) });

export * from './checks.ts';
export * from './schema.ts';
export * from './custom-index.ts';
