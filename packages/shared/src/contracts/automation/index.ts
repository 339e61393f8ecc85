import { z } from 'zod';
import { Automation, AUTOMATION_RUN_STATES, AutomationTrigger, AutomationStep } from '../../automation/model.ts';
import { SchemaCode } from '../form-design/index.ts';

// Automations and smart actions (issue 21; docs/decisions/0041). calls.md names /v1/automatic/*, /v1/smartaction/*
// (actionCode, roleIds, locations), /v1/toolkit/asynctask/* and POST /v1/bizdata/action/automation; their payloads
// are not shown, so these are ours.

const Id = z.string().trim().min(1).max(40);
const PageSize = z.coerce.number().int().min(1).max(100).default(20);
const PageIndex = z.coerce.number().int().min(0).default(0);

/** An automation as stored: its model plus the owner, the webhook URL (webhook trigger) and when it next runs (timed). */
export const AutomationDto = z.object({
  id: z.string(),
  schemaCode: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  trigger: AutomationTrigger,
  condition: z.unknown().nullable(),
  steps: z.array(AutomationStep),
  runAs: z.enum(['owner', 'system']),
  ownerId: z.string(),
  ownerName: z.string(),
  /** Webhook trigger: the path to POST to, with the secret as `?token=` (or the X-Automation-Token header). */
  webhookUrl: z.string().nullable(),
  nextRunTime: z.string().nullable(),
  modifiedTime: z.string(),
});
export type AutomationDto = z.infer<typeof AutomationDto>;

/** POST /v1/automatic/list {schemaCode} */
export const AutomationListBody = z.strictObject({ schemaCode: SchemaCode });
export const AutomationListResult = z.object({ automations: z.array(AutomationDto) });
export type AutomationListResult = z.infer<typeof AutomationListResult>;

/** POST /v1/automatic/save {schemaCode, automation} (automation.id absent: a new one) */
export const AutomationSaveBody = z.strictObject({ schemaCode: SchemaCode, automation: Automation });
export type AutomationSaveBody = z.input<typeof AutomationSaveBody>;
export const AutomationSaveResult = z.object({ automation: AutomationDto });

/** POST /v1/automatic/enable | disable | delete | resetsecret {id} */
export const AutomationIdBody = z.strictObject({ id: Id });

/** POST /v1/automatic/logs: a form's runs (or one automation's), newest first; keyword searches the trigger record's id, the error and the step outputs. */
export const AutomationLogsBody = z.strictObject({
  schemaCode: SchemaCode,
  automationId: Id.optional(),
  state: z.enum(AUTOMATION_RUN_STATES).optional(),
  keyword: z.string().trim().max(100).optional(),
  pageIndex: PageIndex,
  pageSize: PageSize,
});
export type AutomationLogsBody = z.input<typeof AutomationLogsBody>;

/** One step of a run: what it read and wrote, or why it failed. */
export const AutomationStepLog = z.object({
  stepId: z.string(),
  type: z.string(),
  name: z.string(),
  ok: z.boolean(),
  /** What the step did: records written (ids), found, sent to whom, the HTTP answer's status. */
  output: z.unknown(),
  error: z.string().nullable(),
  durationMs: z.number(),
});
export type AutomationStepLog = z.infer<typeof AutomationStepLog>;

export const AutomationRunDto = z.object({
  runId: z.string(),
  automationId: z.string(),
  automationName: z.string(),
  triggerType: z.string(),
  objectId: z.string().nullable(),
  state: z.enum(AUTOMATION_RUN_STATES),
  attempts: z.number().int(),
  depth: z.number().int(),
  /** The trigger's inputs: the event, the record's values read at the run (or the webhook's body). */
  inputs: z.unknown(),
  steps: z.array(AutomationStepLog),
  error: z.string().nullable(),
  durationMs: z.number().nullable(),
  createdTime: z.string(),
  finishedTime: z.string().nullable(),
});
export type AutomationRunDto = z.infer<typeof AutomationRunDto>;
export const AutomationLogsResult = z.object({ total: z.number().int(), runs: z.array(AutomationRunDto) });
export type AutomationLogsResult = z.infer<typeof AutomationLogsResult>;

/** POST /v1/automatic/retry {runId}: a Failed run runs again (a new attempt of the same event). */
export const AutomationRetryBody = z.strictObject({ runId: Id });

/**
 * POST /v1/automatic/testrun {schemaCode, automation, objectId?}: runs the (unsaved) automation against a record in a
 * transaction that is rolled back — what each step would change, nothing written, nothing sent.
 */
export const AutomationTestRunBody = z.strictObject({ schemaCode: SchemaCode, automation: Automation, objectId: Id.optional() });
export type AutomationTestRunBody = z.input<typeof AutomationTestRunBody>;
export const AutomationTestRunResult = z.object({ matched: z.boolean(), steps: z.array(AutomationStepLog), error: z.string().nullable() });
export type AutomationTestRunResult = z.infer<typeof AutomationTestRunResult>;

/** POST /v1/bizdata/action/automation {schemaCode, automationId, objectIds}: runs a button or custom automation for records (queued). */
export const RunAutomationBody = z.strictObject({ schemaCode: SchemaCode, automationId: Id, objectIds: z.array(Id).max(500).default([]) });
export type RunAutomationBody = z.input<typeof RunAutomationBody>;
export const RunAutomationResult = z.object({ runIds: z.array(z.string()) });

/** POST /v1/smartaction/list {schemaCode, location}: the buttons the caller may press there (button automations, roles checked). */
export const SmartActionListBody = z.strictObject({ schemaCode: SchemaCode, location: z.enum(['form', 'list']) });
export const SmartActionDto = z.object({
  actionCode: z.string(),
  label: z.string(),
  roleIds: z.array(z.string()),
  locations: z.array(z.enum(['form', 'list'])),
  confirmText: z.string(),
  resultMessage: z.string(),
});
export type SmartActionDto = z.infer<typeof SmartActionDto>;
export const SmartActionListResult = z.object({ actions: z.array(SmartActionDto) });
export type SmartActionListResult = z.infer<typeof SmartActionListResult>;
/** POST /v1/smartaction/run {schemaCode, actionCode, objectIds} → the runs queued. */
export const SmartActionRunBody = z.strictObject({ schemaCode: SchemaCode, actionCode: Id, objectIds: z.array(Id).min(1).max(500) });

/** GET /v1/toolkit/asynctask/list: the caller's background tasks, newest first. GET /v1/toolkit/asynctask/get?taskId */
export const AsyncTaskListQuery = z.strictObject({ pageIndex: PageIndex, pageSize: PageSize });
export const AsyncTaskQuery = z.strictObject({ taskId: z.string().uuid() });
export const AsyncTaskDto = z.object({
  taskId: z.string(),
  kind: z.string(),
  state: z.string(),
  progress: z.number(),
  message: z.string().nullable(),
  createdTime: z.string(),
  finishedTime: z.string().nullable(),
});
export type AsyncTaskDto = z.infer<typeof AsyncTaskDto>;
export const AsyncTaskListResult = z.object({ total: z.number().int(), tasks: z.array(AsyncTaskDto) });
