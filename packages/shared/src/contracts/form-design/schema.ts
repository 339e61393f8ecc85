import { z } from 'zod';
import { NodeCode } from '../function-node/index.ts';
import { FormDefinition } from './definition.ts';

// The published schema as the runtime reads it (calls.md §3 "Schema", §7 "Schema, views, workbench": GET /v1/schema)
// and the cached form setting (POST /v1/form/loadsetting). docs/decisions/0006-form-design.md.

/** One field: calls.md §3 name, controlType, displayName, extension. */
export const SchemaProperty = z.object({
  /** The column: the control's code, or the system field's name. */
  name: z.string(),
  /** The control type's number in the registry (e.g. 1 text box, 4 number, 201 sequence number). */
  controlType: z.number().int(),
  /** The registry key of the same type (ours, easier to read than the number). */
  typeKey: z.string(),
  displayName: z.string(),
  /** calls.md §3: displayFormat (date-time), decimalPlaces and showMode (number), bindType lower-cased (formula, rollup), sourcePropertySchema (associated property). */
  extension: z.record(z.string(), z.unknown()),
  /** A system column rather than a control of the designer. */
  isSystem: z.boolean(),
});
export type SchemaProperty = z.infer<typeof SchemaProperty>;

export const ChildSchema = z.object({
  /** The sub-table control's code. */
  schemaCode: z.string(),
  displayName: z.string(),
  properties: z.array(SchemaProperty),
});

export const FormSchemaDto = z.object({
  schemaCode: z.string(),
  appCode: z.string(),
  displayName: z.string(),
  nodeType: z.number().int(),
  /** The published version the schema was built from. */
  version: z.number().int(),
  properties: z.array(SchemaProperty),
  childSchemas: z.array(ChildSchema),
});
export type FormSchemaDto = z.infer<typeof FormSchemaDto>;

/** GET /v1/schema?schemaCode: the published schema (240004 before the first publish). */
export const SchemaQuery = z.object({ schemaCode: NodeCode });

/**
 * POST /v1/form/loadsetting {schemaCode, timestamp?}: the published schema with its timestamp (publish time in ms).
 * When the client's cached timestamp equals it, only {notModified: true} comes back.
 */
export const LoadSettingBody = z.strictObject({ schemaCode: NodeCode, timestamp: z.number().int().min(0).optional() });
export const LoadSettingResult = z.object({
  notModified: z.boolean(),
  timestamp: z.number().int(),
  schema: FormSchemaDto.optional(),
  /** The published control tree and attributes, which the form runtime draws (with schema, absent when notModified). */
  definition: z.lazy(() => FormDefinition).optional(),
});
export type LoadSettingResult = z.infer<typeof LoadSettingResult>;

/** GET /v1/form/hidden?device: the published forms switched off on that device (pcVisible or mobileVisible false). */
export const HiddenFormsQuery = z.strictObject({ device: z.enum(['pc', 'mobile']) });
export const HiddenFormsResult = z.object({ codes: z.array(z.string()) });
