import { z } from 'zod';
import { TimeLimit } from './time-limits.ts';

// The workflow template model (shared/design/workflow.md "Template"; docs/decisions/0014). One template per workflow
// form, versioned: a published version never changes, running instances keep the version they started on.
// The states, item types, approvals and action events are domain.md §4's (constants/workflow.ts).

export const ACTIVITY_TYPES = ['Start', 'Fill', 'Approve', 'Circulate', 'ChildInstance', 'Condition', 'Parallel', 'Join', 'End'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Activities whose participants act on work items the flow waits for. */
export const PARTICIPATIVE_TYPES = ['Fill', 'Approve'] as const satisfies readonly ActivityType[];
export const isParticipative = (type: ActivityType): boolean => (PARTICIPATIVE_TYPES as readonly string[]).includes(type);

/** Activities a person handles (the start node's originator included): send-back and reactivation targets. */
export const HANDLED_TYPES = ['Start', 'Fill', 'Approve'] as const satisfies readonly ActivityType[];
export const isHandled = (type: string): boolean => (HANDLED_TYPES as readonly string[]).includes(type);

/** What a participant of an activity may do besides Submit (and Reject on approve nodes). */
export const HAND_SIGN_MODES = ['none', 'optional', 'required'] as const;
export type HandSignMode = (typeof HAND_SIGN_MODES)[number];

export const PERMITTED_ACTIONS = ['forward', 'addSigner', 'consult', 'sendBack', 'retrieve', 'finish', 'cancel', 'circulate'] as const;
export type PermittedAction = (typeof PERMITTED_ACTIONS)[number];

const Code = z.string().trim().min(1).max(64).regex(/^[A-Za-z][A-Za-z0-9_]*$/, '编码须以字母开头，只含字母、数字和下划线');
const Id = z.string().trim().min(1).max(64);

/**
 * Where participants come from. `departments`: the members of the departments (members) or their managers (manager).
 * `originatorManager`: the managers of the originator's main department and of the departments above it, `levels`
 * of them (level 1 = the manager of the originator's department; a manager is never their own approver).
 * `field`: a user/multi-user field (its users) or a department/multi-department field (members or manager).
 */
export const ParticipantSource = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('users'), ids: z.array(Id).min(1).max(200) }),
  z.strictObject({ type: z.literal('roles'), ids: z.array(Id).min(1).max(50) }),
  z.strictObject({ type: z.literal('departments'), ids: z.array(Id).min(1).max(50), pick: z.enum(['members', 'manager']).default('members') }),
  z.strictObject({ type: z.literal('originator') }),
  z.strictObject({ type: z.literal('originatorManager'), levels: z.number().int().min(1).max(10).default(1) }),
  z.strictObject({ type: z.literal('field'), code: Code, pick: z.enum(['members', 'manager']).default('members') }),
]);
export type ParticipantSource = z.infer<typeof ParticipantSource>;

export const ParticipantRule = z.strictObject({
  sources: z.array(ParticipantSource).max(20).default([]),
  /** Nobody found: give the item to the engine's administrators, or pass the node automatically (agree). */
  whenEmpty: z.enum(['administrator', 'autoPass']).default('administrator'),
});
export type ParticipantRule = z.infer<typeof ParticipantRule>;

/** A number of participants (count) or a share of them (percentage, 1–100, rounded up). */
export const ExitRule = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('count'), value: z.number().int().min(1).max(1000) }),
  z.strictObject({ type: z.literal('percentage'), value: z.number().min(1).max(100) }),
]);
export type ExitRule = z.infer<typeof ExitRule>;

/** Where a disapprove (Reject reaching disapproveExit) goes. */
export const DisapproveTarget = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('firstFill') }),
  z.strictObject({ type: z.literal('previousFill') }),
  z.strictObject({ type: z.literal('activity'), code: Code }),
  z.strictObject({ type: z.literal('rejectFlow') }),
]);
export type DisapproveTarget = z.infer<typeof DisapproveTarget>;

export const FieldPermission = z.strictObject({ visible: z.boolean().default(true), editable: z.boolean().default(false), required: z.boolean().default(false) });
export type FieldPermission = z.infer<typeof FieldPermission>;

const activityBase = {
  code: Code,
  name: z.string().trim().min(1).max(50),
  /** Designer position; the engine ignores it. */
  position: z.strictObject({ x: z.number(), y: z.number() }).optional(),
};

const participative = {
  participants: ParticipantRule.default({ sources: [], whenEmpty: 'administrator' }),
  participateMethod: z.enum(['parallel', 'serial']).default('parallel'),
  /** Agrees (submits, on a Fill node) that pass the node; default: every participant. */
  approveExit: ExitRule.default({ type: 'percentage', value: 100 }),
  /** Disagrees that send the node back; default: as soon as the approve exit can no longer be reached. */
  disapproveExit: ExitRule.optional(),
  disapproveTarget: DisapproveTarget.default({ type: 'previousFill' }),
  permittedActions: z.array(z.enum(PERMITTED_ACTIONS)).max(PERMITTED_ACTIONS.length).default([]),
  /** Control code → permission on this node; controls not named are visible and read-only. */
  fieldPermissions: z.record(z.string(), FieldPermission).default({}),
  /** The node's time limit from an item's arrival and what its timeout does (time-limits.ts; docs/decisions/0042). */
  timeLimit: TimeLimit.nullable().optional(),
  /** Before 0042: a limit in hours, read as `timeLimit` {hours, remind} when `timeLimit` is absent (timeLimitOf). */
  timeLimitHours: z.number().positive().max(8760).optional(),
  /** A hand signature with the opinion on Submit and Reject: not offered, offered, or required (GET handsign/config). */
  handSign: z.enum(HAND_SIGN_MODES).default('optional'),
};

export const Activity = z.discriminatedUnion('type', [
  // The originator may withdraw by default (docs/decisions/0014); cancel and circulate are opt-in.
  z.strictObject({
    ...activityBase,
    type: z.literal('Start'),
    permittedActions: z.array(z.enum(PERMITTED_ACTIONS)).max(PERMITTED_ACTIONS.length).default(['retrieve']),
    fieldPermissions: participative.fieldPermissions,
  }),
  z.strictObject({ ...activityBase, type: z.literal('Fill'), ...participative }),
  z.strictObject({ ...activityBase, type: z.literal('Approve'), ...participative }),
  z.strictObject({ ...activityBase, type: z.literal('Circulate'), participants: participative.participants }),
  /**
   * A child flow (子流程): a record of another workflow form, made from this record's values by `dataMaps`, whose flow
   * the originator starts. `wait`: this node holds the parent until the child finishes (agreed: on; vetoed or
   * cancelled: back to the previous handled node); otherwise the parent goes on at once. `finishStart`: the child's
   * start node is submitted for the originator, else it waits in their todo.
   */
  z.strictObject({
    ...activityBase,
    type: z.literal('ChildInstance'),
    childSchemaCode: z.string().trim().min(1).max(64).optional(),
    wait: z.boolean().default(true),
    finishStart: z.boolean().default(true),
    dataMaps: z.array(z.strictObject({ from: Code, to: Code })).max(50).default([]),
  }),
  z.strictObject({ ...activityBase, type: z.literal('Condition') }),
  z.strictObject({ ...activityBase, type: z.literal('Parallel') }),
  z.strictObject({ ...activityBase, type: z.literal('Join') }),
  z.strictObject({ ...activityBase, type: z.literal('End') }),
]);
export type Activity = z.infer<typeof Activity>;
export type ParticipativeActivity = Extract<Activity, { type: 'Fill' | 'Approve' }>;

/**
 * What a node added in the designer starts with beyond the schema's defaults: an approver may send back and transfer.
 * The schema's own defaults stay as they were, so a stored template means what it meant.
 */
export const NEW_ACTIVITY_DEFAULTS: Partial<Record<ActivityType, { permittedActions: PermittedAction[] }>> = { Approve: { permittedActions: ['forward', 'sendBack'] } };

export const CONDITION_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'empty', 'notEmpty'] as const;

/** The filter model of a route condition: rules on the record's fields, all or any of which must hold. */
export const RouteCondition = z.strictObject({
  match: z.enum(['all', 'any']).default('all'),
  rules: z
    .array(z.strictObject({ field: Code, operator: z.enum(CONDITION_OPERATORS), value: z.unknown().optional() }))
    .min(1)
    .max(20),
});
export type RouteCondition = z.infer<typeof RouteCondition>;

export const Route = z.strictObject({
  from: Code,
  to: Code,
  condition: RouteCondition.optional(),
  /** A condition in the formula language over the record's main fields (true takes the route); with a condition, both must hold. */
  formula: z.string().trim().max(2000).optional(),
  /** The route taken when no other route of the same node matches. */
  isElse: z.boolean().default(false),
});
export type Route = z.infer<typeof Route>;

export const WorkflowTemplate = z.strictObject({
  activities: z.array(Activity).min(1).max(200),
  routes: z.array(Route).max(400),
});
export type WorkflowTemplate = z.infer<typeof WorkflowTemplate>;
export type WorkflowTemplateInput = z.input<typeof WorkflowTemplate>;

/** A participative node's number of agrees needed out of `total` participants (at least 1, at most total). */
export function exitNeed(rule: ExitRule, total: number): number {
  const n = rule.type === 'count' ? rule.value : Math.ceil((rule.value * total) / 100 - 1e-9);
  return Math.max(1, Math.min(total, n));
}
