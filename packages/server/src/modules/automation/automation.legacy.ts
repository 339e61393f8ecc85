import { z } from 'zod';
import { Automation, LEGACY_EXECUTE_TYPES, LEGACY_PLUGIN_CODES, type AutomationStep } from '@tritium/shared/automation/index';
import { CODE_OF_OPERATOR, OPERATOR_CODES, type FilterGroup, type FilterLeaf, type FilterNode } from '@tritium/shared/query/index';
import type { RuleValue } from '@tritium/shared/business-rules/index';
import { ERRORS, type contracts } from '@tritium/shared';
import { legacyAnswer, legacyFailure, legacyParseFailure, legacySuccess, postDataOf, type LegacyEnvelope } from '../../lib/legacy-envelope.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { listAutomations, saveAutomation } from './automation.service.ts';

// The legacy automation calls (h3yun-facts §7: POST /Automatic/OnAction, ActionNames SaveTrigger and LoadTriggers →
// ReturnData.Triggers). A trigger's time is its ExcuteType (111 数据生效时, 113 数据失效时, 114 数据生效或者更新时), its
// condition a DNF `Condition.Expression` (outer list OR, inner AND) of {PropertyName, Operator (the product's codes),
// Value}, its actions PluginCode insertdata | updatedata | removedata. The facts show no field list for an action's
// mappings and matches: here they are `Assignments` and `Filters` of {PropertyName, ValueType (0 a field of this
// record, 1 a fixed value), Value} (docs/decisions/0041). Only automations these shapes can say are listed.

const EXECUTE_TYPE_OF = Object.fromEntries(Object.entries(LEGACY_EXECUTE_TYPES).map(([code, type]) => [type, Number(code)])) as Record<string, number>;
const PLUGIN_OF = Object.fromEntries(Object.entries(LEGACY_PLUGIN_CODES).map(([code, type]) => [type, code])) as Record<string, string>;

const Item = z.object({ PropertyName: z.string().min(1).max(127), ValueType: z.coerce.number().int().min(0).max(1).default(1), Value: z.unknown() });
const LegacyAction = z.object({
  PluginCode: z.enum(['insertdata', 'updatedata', 'removedata']),
  SchemaCode: z.string().min(1).max(64),
  IsInsert: z.boolean().default(false),
  Assignments: z.array(Item).max(200).default([]),
  Filters: z.array(Item).max(10).default([]),
});
const LegacyTrigger = z.object({
  ObjectId: z.string().max(40).optional(),
  DisplayName: z.string().max(50),
  ExcuteType: z.coerce.number().int().refine((n) => n in LEGACY_EXECUTE_TYPES, '触发时机应为111、113或114'),
  Enabled: z.boolean().default(true),
  Condition: z.object({ Expression: z.array(z.array(z.object({ PropertyName: z.string().min(1).max(127), Operator: z.coerce.number().int(), Value: z.unknown().optional() })).max(100)).max(20) }).nullable().optional(),
  Actions: z.array(LegacyAction).min(1).max(20),
});
const Actions = z.discriminatedUnion('ActionName', [
  z.object({ ActionName: z.literal('LoadTriggers'), SchemaCode: z.string().min(1).max(64) }),
  z.object({ ActionName: z.literal('SaveTrigger'), SchemaCode: z.string().min(1).max(64), Trigger: LegacyTrigger }),
]);

const valueOfItem = (i: z.infer<typeof Item>): RuleValue => (i.ValueType === 0 ? { type: 'field', code: String(i.Value) } : { type: 'constant', value: (i.Value ?? null) as never });
const itemOfValue = (field: string, v: RuleValue) => (v.type === 'field' ? { PropertyName: field, ValueType: 0, Value: v.code } : { PropertyName: field, ValueType: 1, Value: v.type === 'constant' ? v.value : null });

function conditionOf(expression: { PropertyName: string; Operator: number; Value?: unknown }[][] | undefined): FilterGroup | null {
  if (!expression?.length) return null;
  const leaf = (i: { PropertyName: string; Operator: number; Value?: unknown }): FilterLeaf => ({ field: i.PropertyName, operator: (OPERATOR_CODES[i.Operator] ?? 'Equal') as FilterLeaf['operator'], ...(i.Value === undefined ? {} : { value: i.Value as never }) });
  return { type: 'Or', children: expression.map((and) => ({ type: 'And', children: and.map(leaf) })) };
}

/** Our condition as the DNF, when it is one (an Or of Ands of leaves, or an And of leaves); otherwise null. */
function expressionOf(condition: FilterGroup | null): unknown[][] | null {
  if (!condition) return null;
  const leaves = (node: FilterNode): FilterLeaf[] | null => ('children' in node ? null : [node]);
  const and = (node: FilterNode) => ('children' in node && node.type === 'And' ? node.children.flatMap((c) => leaves(c) ?? []) : leaves(node));
  const groups = condition.type === 'Or' ? condition.children.map(and) : [condition.children.flatMap((c) => leaves(c) ?? [])];
  return groups.map((g) => (g ?? []).map((l) => ({ PropertyName: l.field, Operator: CODE_OF_OPERATOR[l.operator] ?? 2, Value: l.value ?? null })));
}

export function automationOfLegacy(t: z.infer<typeof LegacyTrigger>): z.input<typeof Automation> {
  const steps: AutomationStep[] = t.Actions.map((a, i): AutomationStep => {
    const id = `a${i + 1}`;
    const mappings = a.Assignments.map((m) => ({ field: m.PropertyName, op: 'set' as const, value: valueOfItem(m) }));
    const match = a.Filters.map((m) => ({ field: m.PropertyName, value: valueOfItem(m) }));
    if (a.PluginCode === 'insertdata') return { id, name: '', type: 'insert', targetSchemaCode: a.SchemaCode, forEach: null, mappings, status: 'effective' };
    if (a.PluginCode === 'updatedata') return { id, name: '', type: 'update', targetSchemaCode: a.SchemaCode, forEach: null, match, mappings, upsert: a.IsInsert };
    return { id, name: '', type: 'remove', targetSchemaCode: a.SchemaCode, forEach: null, match };
  });
  return {
    ...(t.ObjectId ? { id: t.ObjectId } : {}),
    name: t.DisplayName,
    enabled: t.Enabled,
    trigger: { type: LEGACY_EXECUTE_TYPES[t.ExcuteType as keyof typeof LEGACY_EXECUTE_TYPES] },
    condition: conditionOf(t.Condition?.Expression),
    steps,
    runAs: 'owner',
  };
}

/** An automation in the legacy shape, or null when the shape cannot say it (another trigger, other steps, loops). */
export function legacyOfAutomation(a: contracts.AutomationDto): Record<string, unknown> | null {
  const code = EXECUTE_TYPE_OF[a.trigger.type];
  if (code === undefined) return null;
  const actions = a.steps.map((s) => {
    if ((s.type !== 'insert' && s.type !== 'update' && s.type !== 'remove') || s.forEach) return null;
    return {
      PluginCode: PLUGIN_OF[s.type],
      PluginAction: [PLUGIN_OF[s.type]],
      SchemaCode: s.targetSchemaCode,
      DataSetType: s.type === 'remove' ? 2 : 1,
      IsInsert: s.type === 'update' && s.upsert,
      Assignments: s.type === 'remove' ? [] : s.mappings.map((m) => itemOfValue(m.field, m.value)),
      Filters: s.type === 'insert' ? [] : s.match.map((m) => itemOfValue(m.field, m.value)),
    };
  });
  if (actions.some((x) => x === null)) return null;
  return { ObjectId: a.id, DisplayName: a.name, ExcuteType: code, Enabled: a.enabled, Condition: { Expression: expressionOf(a.condition as FilterGroup | null) ?? [] }, Actions: actions };
}

export async function automaticOnAction(ctx: NodeContext, body: unknown): Promise<LegacyEnvelope> {
  const parsed = Actions.safeParse(postDataOf(body));
  if (!parsed.success) return legacyParseFailure(body, ['LoadTriggers', 'SaveTrigger'], parsed.error);
  const a = parsed.data;
  return legacyAnswer(async () => {
    if (a.ActionName === 'LoadTriggers') {
      const { automations } = await listAutomations(ctx, a.SchemaCode);
      return legacySuccess({ Triggers: automations.map(legacyOfAutomation).filter((x) => x !== null) });
    }
    const model = Automation.safeParse(automationOfLegacy(a.Trigger));
    if (!model.success) return legacyFailure(ERRORS.ParameterVerificationFailed.code, ERRORS.ParameterVerificationFailed.zh, { issues: model.error.issues.map((i) => ({ path: ['Trigger', ...i.path].join('.'), message: i.message })) });
    const { automation } = await saveAutomation(ctx, { schemaCode: a.SchemaCode, automation: model.data });
    return legacySuccess({ Trigger: legacyOfAutomation(automation) });
  });
}
