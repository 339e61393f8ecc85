import { z } from 'zod';
import { CONTROL_DEPENDENCY_KINDS } from '../../constants/form.ts';
import { FormDefinition, SchemaCode } from './definition.ts';

// Form designer and schema publishing (domain.md §3 "Form attributes", calls.md §7 "formdesign"). The spec shows no
// methods or payloads for these calls; docs/decisions/0006-form-design.md chooses them.

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
/** What a publish changes in the designer's words: display names of the fields and sub-tables added, removed, or changed (type or code); a sub-table's field reads "明细.金额". */
export const PublishSummary = z.object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) });
export type PublishSummary = z.infer<typeof PublishSummary>;
export const FormDesignPublishResult = z.object({ publishedVersion: z.number().int(), publishedTime: z.string().nullable(), changes: z.array(SchemaChange), summary: PublishSummary, applied: z.boolean() });
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
export * from './definition.ts';
export * from './schema.ts';
export * from './custom-index.ts';
