/**
 * Automations (自动化, issue 21; docs/decisions/0041): per form, a trigger, a condition in the filter model and a
 * sequence of steps. A run is a job; it reads the trigger's record (or the webhook's body, or nothing for a timed
 * trigger), checks the condition, then runs each step in order — data steps write through the business-data checks,
 * outside steps go through the notification service and the channel adapters.
 *
 * Values reuse the business rules' shape (RuleValue): a field of the trigger record (`Code`, a system field), of the
 * current loop row (`Grid.Code` over a sub-table, `<stepId>.Code` over a query step's results), a formula over them, or
 * a constant. Texts are templates with `{Code}` / `{Grid.Code}` / `{stepId.Code}` placeholders.
 */
import { z } from 'zod';
import { controlCodeSchema } from '../controls/options/base.ts';
import { RuleCondition, RuleMapping } from '../business-rules/model.ts';
import { FilterGroup } from '../query/filter.ts';
import {
  AUTOMATION_TRIGGERS, DATA_EVENT_TRIGGERS, PLUGIN_ACTIONS, REPEAT_CYCLES, type AutomationActionType, type AutomationTriggerType, type DataEventTrigger,
} from '../constants/automation.ts';
import { codeSchema, emailSchema } from '../validation/zod.ts';
import { MAX_MESSAGE_RECIPIENTS, SMS_CONTENT_MAX_LENGTH } from '../constants/limits.ts';

// The spec's lists (triggers, repeat cycles, actions) are defined once, in constants/automation.ts.
export {
  AUTOMATION_ACTIONS, AUTOMATION_TRIGGERS, DATA_EVENT_TRIGGERS, PLUGIN_ACTIONS, REPEAT_CYCLES,
  type AutomationActionType, type AutomationTriggerType, type DataEventTrigger, type RepeatCycle,
} from '../constants/automation.ts';

/** The legacy trigger times (ExcuteType, shared/reference/h3yun-facts.md §7). */
export const LEGACY_EXECUTE_TYPES = { 111: 'effective', 113: 'voided', 114: 'effectiveOrUpdated' } as const satisfies Record<number, AutomationTriggerType>;
/** The legacy action plugin codes. */
export const LEGACY_PLUGIN_CODES = { insertdata: 'insert', updatedata: 'update', removedata: 'remove' } as const satisfies Record<string, AutomationActionType>;

export const AUTOMATIONS_MAX = 50;
export const AUTOMATION_STEPS_MAX = 20;
/** A query step answers at most this many records; a loop runs at most this many times. */
export const AUTOMATION_QUERY_LIMIT = 1000;
/** Automations started by other automations' writes: a chain deeper than this is stopped and logged. */
export const AUTOMATION_CHAIN_MAX_DEPTH = 5;
/** Failed runs with a retryable cause (network, a provider's 5xx) are tried again this many times in all. */
export const AUTOMATION_MAX_ATTEMPTS = 3;
/** The run log keeps runs this many days. */
export const AUTOMATION_LOG_DAYS = 30;

export const AUTOMATION_RUN_STATES = ['Waiting', 'Running', 'Succeeded', 'Failed', 'Skipped', 'Stopped'] as const;
export type AutomationRunState = (typeof AUTOMATION_RUN_STATES)[number];

const TimeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, '时间格式应为HH:mm');
const IsoTime = z.string().datetime({ offset: true, message: '请选择时间' });
const Template = (max: number) => z.string().max(max, `最多${max}个字符`);
const StepId = z.string().trim().min(1).max(40).regex(/^[A-Za-z][A-Za-z0-9_]*$/, '步骤标识须以字母开头');
/** A value any field of the trigger record may take as `from` / `to` of a changing trigger. */
const Scalar = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);

const simpleTrigger = (type: Exclude<DataEventTrigger, 'changing'> | 'webhook' | 'custom' | 'connector') => z.strictObject({ type: z.literal(type) });

/** A plain union (not discriminated): a trigger missing or mistyping its type is reported as a whole, at `trigger`. */
export const AutomationTrigger = z.union([
  simpleTrigger('effective'),
  simpleTrigger('updated'),
  simpleTrigger('effectiveOrUpdated'),
  simpleTrigger('voided'),
  /** A field changes; optionally only from / to a value. */
  z.strictObject({ type: z.literal('changing'), field: controlCodeSchema, from: Scalar.optional(), to: Scalar.optional() }),
  simpleTrigger('created'),
  simpleTrigger('deleted'),
  simpleTrigger('submitted'),
  /** Each record, at a date field's day plus or minus `offsetDays`, at `time` (China time). */
  z.strictObject({ type: z.literal('date'), field: controlCodeSchema, offsetDays: z.number().int().min(-365).max(365).default(0), time: TimeOfDay.default('09:00') }),
  /** On a cycle from `start` (its time of day and weekday / day of month set the cycle's), until `end`. */
  z.strictObject({ type: z.literal('timing'), cycle: z.enum(REPEAT_CYCLES), start: IsoTime, end: IsoTime.nullable().default(null), every: z.number().int().min(1).max(1000).default(1) }),
  /** Called at the automation's URL with its secret; the JSON body's top-level keys are the values steps read. */
  simpleTrigger('webhook'),
  simpleTrigger('connector'),
  /** A button on the form and / or the list toolbar (smart actions), for the named roles (none: everyone who may view). */
  z.strictObject({
    type: z.literal('button'),
    label: z.string().trim().min(1, '请输入按钮名称').max(20, '按钮名称最多20个字符'),
    locations: z.array(z.enum(['form', 'list'])).min(1, '请选择按钮位置').max(2),
    roleIds: z.array(z.string().min(1).max(64)).max(100).default([]),
    confirmText: Template(200).default(''),
    resultMessage: Template(200).default(''),
  }),
  simpleTrigger('custom'),
]);
export type AutomationTrigger = z.infer<typeof AutomationTrigger>;

/** Where a step loops: each row of a sub-table of the trigger record, or each record an earlier query step found. */
export const StepLoop = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('subtable'), code: controlCodeSchema }),
  z.strictObject({ type: z.literal('query'), stepId: StepId }),
]);
export type StepLoop = z.infer<typeof StepLoop>;

/** Who a notification, e-mail or SMS reaches: the record's people, users and departments named in fields, named users, and (e-mail, SMS) fixed addresses. */
export const Recipients = z.strictObject({
  owner: z.boolean().default(false),
  creator: z.boolean().default(false),
  /** User or department controls of the trigger record. */
  fields: z.array(controlCodeSchema).max(20).default([]),
  userIds: z.array(z.string().min(1).max(64)).max(200).default([]),
  /** E-mail addresses or mobile numbers, as the step's channel needs. */
  addresses: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
});
export type Recipients = z.infer<typeof Recipients>;
/** An e-mail or SMS reaches at most 5 recipients (domain.md §5): named users and fixed addresses are counted here, the rest when it is sent. */
const AddressedRecipients = Recipients.extend({
  userIds: z.array(z.string().min(1).max(64)).max(MAX_MESSAGE_RECIPIENTS, `收件人最多${MAX_MESSAGE_RECIPIENTS}个`).default([]),
  addresses: z.array(z.string().trim().min(1).max(200)).max(MAX_MESSAGE_RECIPIENTS, `收件人最多${MAX_MESSAGE_RECIPIENTS}个`).default([]),
});

const stepBase = { id: StepId, name: z.string().trim().max(50).default('') };
const Target = { targetSchemaCode: codeSchema.max(64) };
const Match = z.array(RuleCondition).max(10, '匹配条件最多10个');
const Mappings = z.array(RuleMapping).max(200, '字段映射最多200个');
const pluginStep = (type: (typeof PLUGIN_ACTIONS)[number]) => z.strictObject({ ...stepBase, type: z.literal(type), settings: z.record(z.string(), z.unknown()).default({}) });

export const AutomationStep = z.discriminatedUnion('type', [
  z.strictObject({ ...stepBase, type: z.literal('insert'), ...Target, forEach: StepLoop.nullable().default(null), mappings: Mappings.min(1, '请设置字段映射'), status: z.enum(['effective', 'draft']).default('effective') }),
  z.strictObject({ ...stepBase, type: z.literal('update'), ...Target, forEach: StepLoop.nullable().default(null), match: Match.min(1, '更新须设置匹配条件'), mappings: Mappings.min(1, '请设置字段映射'), upsert: z.boolean().default(false) }),
  z.strictObject({ ...stepBase, type: z.literal('remove'), ...Target, forEach: StepLoop.nullable().default(null), match: Match.min(1, '删除须设置匹配条件') }),
  /** Finds records of any form: match conditions on the trigger's values, plus a fixed filter; later steps loop over them or read the first. */
  z.strictObject({ ...stepBase, type: z.literal('query'), ...Target, match: Match.default([]), filter: FilterGroup.nullable().default(null), limit: z.number().int().min(1).max(AUTOMATION_QUERY_LIMIT).default(100) }),
  z.strictObject({ ...stepBase, type: z.literal('notification'), recipients: Recipients, title: Template(200).min(1, '请输入标题'), content: Template(2000).default('') }),
  z.strictObject({ ...stepBase, type: z.literal('email'), recipients: AddressedRecipients, title: Template(200).min(1, '请输入邮件主题'), content: Template(10000).default('') }),
  z.strictObject({ ...stepBase, type: z.literal('sms'), recipients: AddressedRecipients, content: Template(SMS_CONTENT_MAX_LENGTH).min(1, '请输入短信内容') }),
  z.strictObject({ ...stepBase, type: z.literal('robot'), title: Template(200).min(1, '请输入标题'), content: Template(2000).default('') }),
  z.strictObject({
    ...stepBase,
    type: z.literal('http'),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
    url: Template(2000).refine((u) => /^https?:\/\//i.test(u.trim()), '请输入以http://或https://开头的地址'),
    headers: z.array(z.strictObject({ name: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9-]+$/, '请求头名称不正确'), value: Template(2000) })).max(20).default([]),
    body: Template(20000).default(''),
    /** Fields of the trigger record set from the answer's JSON (a dotted path: `data.id`, `items.0.name`). */
    responseMappings: z.array(z.strictObject({ field: controlCodeSchema, path: z.string().trim().min(1).max(200) })).max(50).default([]),
  }),
  pluginStep('attendance'),
  pluginStep('payment'),
  /**
   * Runs a connector (docs/decisions/0120) with the trigger record's fields as its `{{Code}}` values; `params` adds
   * or replaces values (a template of `{{Code}}` places of the record); `outputMappings` writes outputs back to fields.
   */
  z.strictObject({
    ...stepBase,
    type: z.literal('connector'),
    connectorCode: codeSchema.max(64, '请选择连接器'),
    params: z.array(z.strictObject({ name: z.string().trim().min(1, '请输入参数名').max(64).regex(/^[^{}\s]+$/, '参数名不能含空格或花括号'), value: Template(2000) })).max(50).default([]),
    outputMappings: z.array(z.strictObject({ field: controlCodeSchema, output: z.string().trim().min(1).max(64) })).max(50).default([]),
  }),
]);
export type AutomationStep = z.infer<typeof AutomationStep>;
export type AutomationStepInput = z.input<typeof AutomationStep>;

export const Automation = z
  .strictObject({
    /** Given by the server on first save. */
    id: z.string().max(40).optional(),
    name: z.string().trim().min(1, '请输入自动化名称').max(50, '自动化名称最多50个字符'),
    enabled: z.boolean().default(true),
    trigger: AutomationTrigger,
    /** The trigger record must match (the filter model, on the trigger's form); none: every event. */
    condition: FilterGroup.nullable().default(null),
    steps: z.array(AutomationStep).min(1, '请添加至少一个执行动作').max(AUTOMATION_STEPS_MAX, `执行动作最多${AUTOMATION_STEPS_MAX}个`),
    /** As the automation's owner, within the owner's permissions; or as the system, with every right. */
    runAs: z.enum(['owner', 'system']).default('owner'),
  })
  .superRefine((a, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const seen = new Set<string>();
    a.steps.forEach((step, i) => {
      if (seen.has(step.id)) issue(['steps', i, 'id'], '步骤标识重复');
      const loop = 'forEach' in step ? step.forEach : null;
      if (loop?.type === 'query') {
        const source = a.steps.findIndex((s) => s.id === loop.stepId);
        if (source < 0 || source >= i || a.steps[source]!.type !== 'query') issue(['steps', i, 'forEach'], '循环须引用之前的查询步骤');
      }
      seen.add(step.id);
    });
    const recordless = a.trigger.type === 'timing' || a.trigger.type === 'webhook' || a.trigger.type === 'connector';
    if (recordless && a.condition) issue(['condition'], '该触发方式没有触发数据，不能设置条件');
    if (a.trigger.type === 'timing' && a.trigger.end && a.trigger.end <= a.trigger.start) issue(['trigger', 'end'], '结束时间须晚于开始时间');
  });
export type Automation = z.infer<typeof Automation>;
export type AutomationInput = z.input<typeof Automation>;

export const isDataEventTrigger = (type: AutomationTriggerType): type is DataEventTrigger => (DATA_EVENT_TRIGGERS as readonly string[]).includes(type);

/** The value at a dotted path of a JSON answer (`data.items.0.id`); undefined when absent. */
export function valueAtPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Fills `{Code}`, `{Grid.Code}`, `{step.Code}` placeholders from `lookup`; arrays join with commas, missing values are empty. */
export function fillTemplate(template: string, lookup: (name: string) => unknown): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\}/g, (_m, name: string) => {
    const value = lookup(name);
    if (value === null || value === undefined) return '';
    if (Array.isArray(value)) return value.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v))).join(',');
    if (value instanceof Date) return value.toISOString();
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

/** Addresses a step's recipients name that look like e-mail addresses (email step) — the rest are refused on save. */
export const isEmailAddress = (text: string) => emailSchema.safeParse(text).success;
