import { z } from 'zod';
import { BusinessRules } from '../../business-rules/model.ts';
import { SchemaCode } from '../form-design/index.ts';

// Business rules and rollup recomputation (issue 7; docs/decisions/0015). The spec names /v1/form/rollup/* and the
// business-rule feature, not their payloads.

/** One problem of a form's rules against the forms they name (answered by save, refused by publish). */
export const BusinessRuleIssue = z.object({ ruleId: z.string().nullable(), path: z.string(), message: z.string() });
export type BusinessRuleIssue = z.infer<typeof BusinessRuleIssue>;

/** POST /v1/form/businessrule/load {schemaCode} → the draft rules and the published ones (what runs). */
export const BusinessRuleLoadBody = z.strictObject({ schemaCode: SchemaCode });
export const BusinessRuleLoadResult = z.object({
  schemaCode: z.string(),
  draft: BusinessRules,
  published: BusinessRules,
  hasUnpublishedChanges: z.boolean(),
});
export type BusinessRuleLoadResult = z.infer<typeof BusinessRuleLoadResult>;

/** POST /v1/form/businessrule/save {schemaCode, rules} → the issues publishing would refuse (saved anyway). */
export const BusinessRuleSaveBody = z.strictObject({ schemaCode: SchemaCode, rules: BusinessRules });
export type BusinessRuleSaveBody = z.input<typeof BusinessRuleSaveBody>;
export const BusinessRuleSaveResult = z.object({ schemaCode: z.string(), issues: z.array(BusinessRuleIssue) });
export type BusinessRuleSaveResult = z.infer<typeof BusinessRuleSaveResult>;

/** POST /v1/form/rollup/recompute {schemaCode} → a job recomputing every record's rollups (and formulas over them). */
export const RollupRecomputeBody = z.strictObject({ schemaCode: SchemaCode });
export const RollupRecomputeResult = z.object({ actionId: z.string() });

/** GET /v1/form/rollup/progress?actionId */
export const RollupProgressQuery = z.strictObject({ actionId: z.string().uuid() });
export const RollupProgressResult = z.object({
  actionId: z.string(),
  isComplete: z.boolean(),
  state: z.string(),
  progress: z.number(),
  message: z.string().nullable(),
  /** Once complete: records read and records whose stored values changed. */
  result: z.object({ records: z.number().int(), changed: z.number().int() }).nullable(),
});
export type RollupProgressResult = z.infer<typeof RollupProgressResult>;

/** POST /v1/form/rollup/recomputerecord {schemaCode, objectId} → the record's rollups as now stored. */
export const RollupRecomputeRecordBody = z.strictObject({ schemaCode: SchemaCode, objectId: z.string().min(1).max(64) });
export const RollupRecomputeRecordResult = z.object({ objectId: z.string(), values: z.record(z.string(), z.unknown()), changed: z.boolean() });
