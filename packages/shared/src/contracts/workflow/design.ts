import { z } from 'zod';
import { SchemaCode } from '../form-design/index.ts';
import { WorkflowTemplate } from '../../workflow/model.ts';

// The workflow designer's own calls (docs/decisions/0018): the dry run and the published template's activities.

const UserId = z.string().trim().min(1).max(64);

/**
 * POST /v1/workflow/template/dryrun: which path a record would take and who would receive each node. The template is
 * the one given (the designer's unsaved state), else the draft, else the latest published version. The values are
 * the sample record's (objectId), overridden by `values`; the originator is the record's creator, else `originatorId`,
 * else the caller.
 */
export const WfDryRunBody = z.strictObject({
  schemaCode: SchemaCode,
  template: WorkflowTemplate.optional(),
  objectId: z.uuid().optional(),
  values: z.record(z.string().max(64), z.unknown()).optional(),
  originatorId: UserId.optional(),
});
export type WfDryRunBody = z.input<typeof WfDryRunBody>;

const Person = z.object({ userId: z.string(), name: z.string() });

export const WfDryRunStep = z.object({
  code: z.string(),
  name: z.string(),
  type: z.string(),
  /** Who would receive the node (Start: the originator). Empty for nodes without participants. */
  participants: z.array(Person),
  /** Nobody found by the rule: the node goes to the administrators, or passes by itself. */
  whenEmpty: z.enum(['administrator', 'autoPass']).nullable(),
  /** The routes this node would take (Condition: the first that holds or else; Parallel: every one that holds). */
  next: z.array(z.object({ to: z.string(), isElse: z.boolean() })),
  /** A branching node no route of which matches the record (the engine would stop with 280014). */
  blocked: z.boolean(),
});
export type WfDryRunStep = z.infer<typeof WfDryRunStep>;

export const WfDryRunResult = z.object({
  schemaCode: z.string(),
  /** Which template was run: the one sent, the draft, or a published version. */
  source: z.enum(['body', 'draft', 'published']),
  originator: Person,
  /** The activities on the path, in the order the flow reaches them. */
  steps: z.array(WfDryRunStep),
  /** Whether an End is reached. */
  reachesEnd: z.boolean(),
});
export type WfDryRunResult = z.infer<typeof WfDryRunResult>;

/** GET /v1/workflow/template/activity/list?schemaCode=: the latest published template's activities. */
export const WfTemplateActivityListResult = z.object({
  schemaCode: z.string(),
  version: z.number().int(),
  activities: z.array(z.object({ code: z.string(), name: z.string(), type: z.string() })),
});
export type WfTemplateActivityListResult = z.infer<typeof WfTemplateActivityListResult>;
