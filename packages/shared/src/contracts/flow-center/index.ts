import { z } from 'zod';
import { REMINDER_STATES } from '../../constants/messages.ts';
import { SchemaCode } from '../form-design/index.ts';
import { listOf } from '../common.ts';
import { WorkflowOpinion } from '../workflow/index.ts';

// The flow center (流程中心) and reminders (calls.md §7 "Workflow", "Reminders and messages";
// docs/decisions/0019-flow-center-and-reminders.md). The spec names the tabs and the reminder calls, not the payloads.

/** 待办 todo · 待阅 toRead · 我发起的 apply · 已办 done · 全部 all. */
export const FLOW_CENTER_TABS = ['todo', 'toRead', 'apply', 'done', 'all'] as const;
export type FlowCenterTab = (typeof FLOW_CENTER_TABS)[number];

/** Page sizes a flow-center or reminder list accepts (api-conventions.md options up to 100). */
const PageSize = z.coerce.number().int().min(1).max(100).default(20);
const PageIndex = z.coerce.number().int().min(0).default(0);

export const FlowCenterListBody = z.strictObject({
  tab: z.enum(FLOW_CENTER_TABS),
  pageIndex: PageIndex,
  pageSize: PageSize,
  /** Part of the instance name (its data title). */
  keyword: z.string().trim().max(100).optional(),
  /** Only this form's instances. */
  schemaCode: SchemaCode.optional(),
  /** toRead: unread (default) items, read ones, or both. */
  readState: z.enum(['unread', 'read', 'all']).default('unread'),
  /** apply and all: running (进行中), finished (生效), canceled (作废) or every instance (default). */
  instanceState: z.enum(['running', 'finished', 'canceled', 'all']).default('all'),
});
export type FlowCenterListBody = z.input<typeof FlowCenterListBody>;

export const FlowActivityRef = z.object({ code: z.string(), name: z.string() });

/** One row of a flow-center tab: an instance, and for todo/toRead/done the work item the row stands for. */
export const FlowCenterRow = z.object({
  instanceId: z.string(),
  schemaCode: z.string(),
  objectId: z.string(),
  /** The instance name (the record's data title when the flow started). */
  instanceName: z.string(),
  formName: z.string(),
  appCode: z.string().nullable(),
  originator: z.string(),
  originatorName: z.string(),
  instanceState: z.string(),
  approval: z.number().int(),
  /** Activities with a running token now (empty once the flow ended). */
  currentActivities: z.array(FlowActivityRef),
  startTime: z.string(),
  finishedTime: z.string().nullable(),
  /** The work item (todo, toRead, done); null on the instance tabs (apply, all). */
  workItemId: z.string().nullable(),
  itemType: z.string().nullable(),
  activityCode: z.string().nullable(),
  activityName: z.string().nullable(),
  itemState: z.string().nullable(),
  /** When the item reached me (item tabs) or when the flow started (instance tabs). */
  receivedTime: z.string(),
  itemFinishedTime: z.string().nullable(),
  /** The item was urged (item tabs) / an open item of the instance was urged (instance tabs). */
  urged: z.boolean(),
  /** The item's deadline from its node's time limit (item tabs; docs/decisions/0042); null without one. */
  dueTime: z.string().nullable(),
  /** The item is still open and its deadline has passed (已超时). */
  overdue: z.boolean(),
});
export type FlowCenterRow = z.infer<typeof FlowCenterRow>;

export const FlowCenterListResult = listOf(FlowCenterRow);
export type FlowCenterListResult = z.infer<typeof FlowCenterListResult>;

/** The forms the caller's flows run on, for the form filter. */
export const FlowCenterFormsResult = z.object({ list: z.array(z.object({ schemaCode: z.string(), formName: z.string() })) });

/** 快速审批: agree several approve items at once; each answers on its own. */
export const RapidApproveBody = z.strictObject({
  workItemIds: z
    .array(z.uuid())
    .min(1)
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, '待办不能重复'),
  opinion: WorkflowOpinion.optional(),
});
export const RapidApproveItemResult = z.object({
  workItemId: z.string(),
  successful: z.boolean(),
  errorCode: z.number().int().nullable(),
  errorMessage: z.string().nullable(),
});
export const RapidApproveResult = z.object({ results: z.array(RapidApproveItemResult), successCount: z.number().int(), failCount: z.number().int() });
export type RapidApproveResult = z.infer<typeof RapidApproveResult>;

// ---- reminders (提醒) --------------------------------------------------------------------------------------------

export const RemindTaskListBody = z.strictObject({
  pageIndex: PageIndex,
  pageSize: PageSize,
  /** unread / read; absent = both. */
  taskState: z.enum(REMINDER_STATES).optional(),
});
export type RemindTaskListBody = z.input<typeof RemindTaskListBody>;

export const REMIND_KINDS = ['todo', 'urge', 'circulate', 'forward', 'addsign', 'consult'] as const;

export const RemindTaskDto = z.object({
  taskId: z.string(),
  /** Why it was sent: a new todo, an urge, a CC, a transfer, added signers, a consult request. */
  kind: z.enum(REMIND_KINDS),
  content: z.string(),
  taskState: z.enum(REMINDER_STATES),
  senderId: z.string().nullable(),
  senderName: z.string(),
  instanceId: z.string().nullable(),
  workItemId: z.string().nullable(),
  schemaCode: z.string().nullable(),
  objectId: z.string().nullable(),
  instanceName: z.string(),
  createdTime: z.string(),
  readTime: z.string().nullable(),
});
export type RemindTaskDto = z.infer<typeof RemindTaskDto>;
export const RemindTaskListResult = listOf(RemindTaskDto);
export type RemindTaskListResult = z.infer<typeof RemindTaskListResult>;

/** PUT /v1/remindtask/state/read: the named reminders, or every unread one of mine with `all`. */
export const RemindTaskReadBody = z
  .strictObject({ taskIds: z.array(z.uuid()).min(1).max(500).optional(), all: z.boolean().optional() })
  .refine((b) => !!b.taskIds !== !!b.all, { message: '须提供 taskIds 或 all（二选一）' });
export const RemindTaskReadResult = z.object({ updated: z.number().int() });
export const RemindUnreadCountResult = z.object({ count: z.number().int() });
