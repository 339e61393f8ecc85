import { z } from 'zod';
import { SchemaCode } from '../form-design/index.ts';
import { WorkflowTemplate } from '../../workflow/model.ts';

// The workflow calls (calls.md §7 "Workflow"). The spec names paths, not payloads: docs/decisions/0014 chooses them.
// Every action answers the instance as it is after the action.

const Id = z.uuid();
const UserId = z.string().trim().min(1).max(64);
const ActivityCode = z.string().trim().min(1).max(64);

/** An opinion (审批意见) with an optional hand signature (a file URL or data URL) and attachments (file ids). */
export const WorkflowOpinion = z.strictObject({
  text: z.string().trim().max(2000).optional(),
  signature: z.string().max(200_000).nullable().optional(),
  attachmentIds: z.array(z.string().min(1).max(64)).max(20).optional(),
});
export type WorkflowOpinion = z.infer<typeof WorkflowOpinion>;

export const WfTemplateSaveBody = z.strictObject({ schemaCode: SchemaCode, template: WorkflowTemplate });
export const WfTemplatePublishBody = z.strictObject({ schemaCode: SchemaCode });
export const WfTemplateQuery = z.object({ schemaCode: SchemaCode });

export const WfTemplateIssueDto = z.object({ rule: z.string(), message: z.string(), activity: z.string().optional() });
export const WfTemplateSaveResult = z.object({ schemaCode: z.string(), issues: z.array(WfTemplateIssueDto) });
/** Participants named on a node who may not open the form: they handle their to-dos but see no form to start. */
export const WfParticipantNotice = z.object({ activityCode: z.string(), activityName: z.string(), userIds: z.array(z.string()), userNames: z.array(z.string()) });
export const WfTemplatePublishResult = z.object({ schemaCode: z.string(), version: z.number().int(), notices: z.array(WfParticipantNotice) });
export const WfTemplateLoadResult = z.object({
  schemaCode: z.string(),
  draft: z.unknown().nullable(),
  publishedVersion: z.number().int().nullable(),
  published: z.unknown().nullable(),
});

export const WfStartBody = z.strictObject({
  schemaCode: SchemaCode,
  objectId: Id,
  /** Submit the start activity at once (default): the record becomes Running. false: the instance waits Starting. */
  submit: z.boolean().default(true),
  opinion: WorkflowOpinion.optional(),
});

const ItemBody = { workItemId: Id, opinion: WorkflowOpinion.optional() };
/**
 * Submit may carry the handler's edits of the record (values; sub-table code → its whole new list of rows): only the
 * fields the node makes editable are taken, and the node's required fields must be filled (docs/decisions/0022).
 */
export const WfSubmitBody = z.strictObject({
  ...ItemBody,
  values: z.record(z.string(), z.unknown()).optional(),
  children: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).optional(),
});
export const WfRejectBody = z.strictObject(ItemBody);
export const WfForBackBody = z.strictObject({ ...ItemBody, activityCode: ActivityCode });
export const WfForwardBody = z.strictObject({ ...ItemBody, userId: UserId });
export const WfAddSignBody = z.strictObject({ ...ItemBody, position: z.enum(['before', 'after']), userIds: z.array(UserId).min(1).max(20) });
export const WfConsultBody = z.strictObject({ ...ItemBody, userIds: z.array(UserId).min(1).max(20) });

const InstanceBody = { instanceId: Id, opinion: WorkflowOpinion.optional() };
/**
 * POST instance/revise (修订): an administrator of the form's app changes a record whose flow runs or ended agreed,
 * without moving the flow; the trace keeps a 修订 entry with the opinion (docs/decisions/0024).
 */
export const WfReviseBody = z.strictObject({
  ...InstanceBody,
  values: z.record(z.string(), z.unknown()).default({}),
  children: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).optional(),
});
export const WfRetrieveBody = z.strictObject(InstanceBody);
export const WfCancelBody = z.strictObject(InstanceBody);
export const WfFinishBody = z.strictObject(InstanceBody);
export const WfUrgeBody = z.strictObject({ instanceId: Id, content: z.string().trim().min(1).max(500) });
export const WfReactivateBody = z.strictObject({ ...InstanceBody, activityCode: ActivityCode, userIds: z.array(UserId).max(50).default([]) });
export const WfCirculateBody = z.strictObject({ ...InstanceBody, userIds: z.array(UserId).min(1).max(100), workItemId: Id.optional() });
export const WfReadBody = z.strictObject({ instanceId: Id, workItemIds: z.array(Id).min(1).max(500).optional() });

/** GET info: by instance, or by the record it runs for. */
export const WfInstanceQuery = z.object({ instanceId: Id.optional(), schemaCode: SchemaCode.optional(), objectId: Id.optional() }).refine((q) => !!q.instanceId || (!!q.schemaCode && !!q.objectId), {
  message: '须提供 instanceId，或 schemaCode 与 objectId',
});
export const WfParticipantQuery = z.object({ instanceId: Id, activityCode: ActivityCode });
/** GET activity/pre: the nodes the caller's open item may be sent back to (退回). */
export const WfActivityPreQuery = z.object({ workItemId: Id });
export const WfActivityPreResult = z.object({ activities: z.array(z.object({ code: z.string(), name: z.string(), type: z.string() })) });

/**
 * GET handsign/config: whether the caller's open item takes a hand signature with its opinion (none, optional,
 * required: Submit and Reject are refused without one), and the caller's latest signature to sign with again.
 */
export const WfHandSignConfigQuery = z.object({ workItemId: Id });
export const WfHandSignConfigResult = z.object({ mode: z.enum(['none', 'optional', 'required']), lastSignature: z.string().nullable() });

export const WfInstanceDto = z.object({
  instanceId: z.string(),
  schemaCode: z.string(),
  objectId: z.string(),
  version: z.number().int(),
  name: z.string(),
  originator: z.string(),
  state: z.string(),
  approval: z.number().int(),
  /** Activities with a running token now. */
  runningActivities: z.array(z.string()),
  createdTime: z.string(),
  finishedTime: z.string().nullable(),
});
export type WfInstanceDto = z.infer<typeof WfInstanceDto>;

export const WfFieldPermissionDto = z.object({ visible: z.boolean(), editable: z.boolean(), required: z.boolean() });

export const WfWorkItemDto = z.object({
  workItemId: z.string(),
  tokenId: z.string(),
  activityCode: z.string(),
  activityName: z.string(),
  itemType: z.string(),
  kind: z.string(),
  participant: z.string(),
  finisher: z.string().nullable(),
  delegant: z.string().nullable(),
  sourceItemId: z.string().nullable(),
  state: z.string(),
  approval: z.number().int(),
  actionEvent: z.string().nullable(),
  urged: z.boolean(),
  createdTime: z.string(),
  finishedTime: z.string().nullable(),
  /** The deadline from the node's time limit (docs/decisions/0042); null when the node has none. */
  dueTime: z.string().nullable(),
});
export type WfWorkItemDto = z.infer<typeof WfWorkItemDto>;

export const WfInstanceInfoResult = z.object({
  instance: WfInstanceDto,
  /** The caller's open items, each with the buttons it offers and the node's field permissions. */
  myItems: z.array(
    WfWorkItemDto.extend({
      actions: z.array(z.string()),
      fieldPermissions: z.record(z.string(), WfFieldPermissionDto),
      /** The permission of every control the node does not name (the start node: editable; others: read-only). */
      defaultFieldPermission: WfFieldPermissionDto,
    }),
  ),
  /** Instance-level actions the caller may take now: RetrieveInstance, CancelInstance, FinishInstance, Urge, Reactivate. */
  instanceActions: z.array(z.string()),
});

export const WfTokenDto = z.object({
  tokenId: z.string(),
  seq: z.number().int(),
  activityCode: z.string(),
  activityName: z.string(),
  state: z.string(),
  approval: z.number().int(),
  participants: z.array(z.string()),
  itemCount: z.number().int(),
  agreeCount: z.number().int(),
  disagreeCount: z.number().int(),
  retrievable: z.boolean(),
  preTokens: z.array(z.string()),
  actionEvent: z.string().nullable(),
  skipped: z.boolean(),
  createdTime: z.string(),
  finishedTime: z.string().nullable(),
});

export const WfCommentDto = z.object({
  commentId: z.string(),
  tokenId: z.string().nullable(),
  workItemId: z.string().nullable(),
  activityCode: z.string().nullable(),
  userId: z.string(),
  action: z.string(),
  text: z.string(),
  approval: z.number().int(),
  signature: z.string().nullable(),
  attachmentIds: z.array(z.string()),
  receivers: z.array(z.string()),
  createdTime: z.string(),
});

/** The approval trace: tokens, items and the comment/action log, oldest first. */
export const WfInstanceDetailResult = z.object({ instance: WfInstanceDto, tokens: z.array(WfTokenDto), items: z.array(WfWorkItemDto), comments: z.array(WfCommentDto) });

export const WfActivityListResult = z.object({
  instanceId: z.string(),
  version: z.number().int(),
  activities: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      type: z.string(),
      /** NotReached, Running, Finished (passed), Back, Dropped, Revoke — from its latest token. */
      status: z.string(),
      activations: z.number().int(),
      /** Where the designer placed it (the chart lays out unplaced nodes itself). */
      position: z.object({ x: z.number(), y: z.number() }).nullable(),
    }),
  ),
  routes: z.array(z.object({ from: z.string(), to: z.string(), isElse: z.boolean() })),
});

export const WfParticipantListResult = z.object({
  activityCode: z.string(),
  /** activated: the participants of its latest activation; rule: who the rule would pick now. */
  source: z.enum(['activated', 'rule']),
  participants: z.array(z.object({ userId: z.string(), name: z.string() })),
});

export const WfTodosCountResult = z.object({ todo: z.number().int(), toRead: z.number().int() });
export const WfUnfinishedCountResult = z.object({ count: z.number().int() });
export * from './design.ts';
