/**
 * Business rules (业务规则, docs/decisions/0015): what a form does to other forms when one of its records becomes
 * effective (top to bottom) or void (bottom to top). Each rule inserts, updates, upserts or deletes records of one
 * target form; values come from this record's fields, formulas over it, or constants; update, upsert and delete find
 * their records by match conditions (target field = value, all of them). A rule may run once per row of a sub-table.
 */
import { z } from 'zod';
import { controlCodeSchema } from '../controls/options/base.ts';
import { codeSchema } from '../validation/zod.ts';

export const BUSINESS_RULE_TRIGGERS = ['effective', 'void'] as const;
export const BUSINESS_RULE_ACTIONS = ['insert', 'update', 'upsert', 'delete'] as const;
/** How a mapping writes its value: set it, or add it to / subtract it from the target's number (update). */
export const BUSINESS_RULE_OPERATIONS = ['set', 'add', 'subtract'] as const;
export const BUSINESS_RULES_MAX = 50;

export type BusinessRuleTrigger = (typeof BUSINESS_RULE_TRIGGERS)[number];
export type BusinessRuleAction = (typeof BUSINESS_RULE_ACTIONS)[number];

/** A field of this record (`Code`, a system field such as `ObjectId` or `SeqNo`, or `Grid.Code` in a per-row rule). */
const sourceCode = z.string().trim().min(1, '请选择字段').max(130).regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/, '字段编码不正确');

export const RuleValue = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('field'), code: sourceCode }),
  z.strictObject({ type: z.literal('formula'), expression: z.string().trim().min(1, '请输入公式').max(2000, '公式最多2000个字符') }),
  z.strictObject({ type: z.literal('constant'), value: z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]) }),
]);
export type RuleValue = z.infer<typeof RuleValue>;

export const RuleMapping = z.strictObject({
  /** A main-table field of the target form. */
  field: controlCodeSchema,
  op: z.enum(BUSINESS_RULE_OPERATIONS).default('set'),
  value: RuleValue,
});
export type RuleMapping = z.infer<typeof RuleMapping>;

export const RuleCondition = z.strictObject({
  /** A main-table field of the target form (or ObjectId, SeqNo). */
  field: controlCodeSchema,
  value: RuleValue,
});
export type RuleCondition = z.infer<typeof RuleCondition>;

export const BusinessRule = z
  .strictObject({
    id: z.string().trim().min(1).max(40).regex(/^[A-Za-z0-9_-]+$/),
    name: z.string().trim().min(1, '请输入规则名称').max(50, '规则名称最多50个字符'),
    enabled: z.boolean().default(true),
    on: z.enum(BUSINESS_RULE_TRIGGERS),
    action: z.enum(BUSINESS_RULE_ACTIONS),
    targetSchemaCode: codeSchema.max(64),
    /** A sub-table of this form: the rule runs once for each of its rows. */
    forEachRow: controlCodeSchema.nullable().default(null),
    conditions: z.array(RuleCondition).max(10, '匹配条件最多10个').default([]),
    mappings: z.array(RuleMapping).max(200, '字段映射最多200个').default([]),
  })
  .superRefine((rule, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    if (rule.action !== 'insert' && !rule.conditions.length) issue(['conditions'], '更新、删除须设置匹配条件');
    if (rule.action === 'insert' && rule.conditions.length) issue(['conditions'], '插入数据不需要匹配条件');
    if (rule.action !== 'delete' && !rule.mappings.length) issue(['mappings'], '请设置字段映射');
    if (rule.action === 'delete' && rule.mappings.length) issue(['mappings'], '删除数据不需要字段映射');
    const seen = new Set<string>();
    rule.mappings.forEach((m, i) => {
      if (seen.has(m.field.toLowerCase())) issue(['mappings', i, 'field'], '同一字段只能映射一次');
      seen.add(m.field.toLowerCase());
      if (m.op !== 'set' && rule.action === 'insert') issue(['mappings', i, 'op'], '插入数据只能直接赋值');
    });
  });
export type BusinessRule = z.infer<typeof BusinessRule>;
export type BusinessRuleInput = z.input<typeof BusinessRule>;

export const BusinessRules = z
  .array(BusinessRule)
  .max(BUSINESS_RULES_MAX, `每个表单最多${BUSINESS_RULES_MAX}条业务规则`)
  .superRefine((rules, ctx) => {
    const ids = new Set<string>();
    rules.forEach((rule, i) => {
      if (ids.has(rule.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: '规则标识重复' });
      ids.add(rule.id);
    });
  });

/** The rules a trigger runs, in order: top to bottom on effective, bottom to top on void; disabled ones skipped. */
export function rulesToRun(rules: readonly BusinessRule[], on: BusinessRuleTrigger): BusinessRule[] {
  const list = rules.filter((r) => r.enabled && r.on === on);
  return on === 'void' ? list.reverse() : list;
}

/** Cycles in a graph of forms (form → forms its rules write); each cycle as schema codes, A → B → A as [A, B]. */
export function findCycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const dfs = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next));
        const id = [...cycle].sort().join('|');
        if (!seen.has(id)) seen.add(id), cycles.push(cycle);
      } else if (!state.has(next)) dfs(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) dfs(node);
  return cycles;
}
