import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import { rulesToRun, type BusinessRule, type BusinessRuleTrigger, type RuleValue } from '@tritium/shared/business-rules/index';
import { decimalPlacesOf } from '@tritium/shared/controls/index';
import { coerceFormulaResult, createFormulaContext, evaluateFormula } from '@tritium/shared/formula/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { toColumn } from '../business-data/field-values.ts';
import { presentSystem, presentValues } from '../business-data/record.presenter.ts';
import { anyDb, type RuntimeForm } from '../business-data/runtime-form.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import { writingSnapshot } from '../business-data/record-hooks-port.ts';
import { publishedRulesOf } from './business-rules.repo.ts';

// Runs a form's business rules (docs/decisions/0015) inside the transaction of the action that made a record
// effective or void: top to bottom on effective, bottom to top on void. Each rule's writes are saves and removals
// of the target form's records through the business-data checks; a refused write fails the whole action.

type Row = Record<string, unknown>;

/** A rule chain deeper than this is refused (publish refuses cycles; this guards against what slipped past). */
const MAX_DEPTH = 8;

/** The record a rule reads: its values, sub-table rows and system fields. */
export interface RuleRecord {
  objectId: string;
  values: Row;
  children: Record<string, Row[]>;
  system: Row;
}

/** What a rule does to the target form's records; supplied by the hooks (the business-data save and removal). */
export interface RuleWrites {
  insert(target: RuntimeForm, values: Row): Promise<void>;
  /** `locked`: the row as the match read it FOR UPDATE in this transaction (the save need not read it again). */
  update(target: RuntimeForm, objectId: string, values: Row, locked?: Row): Promise<void>;
  remove(target: RuntimeForm, objectId: string): Promise<void>;
}

/** State shared by every hook call in one transaction (found by its executor). */
export interface RuleRun {
  forms: FormCache;
  ctx: NodeContext;
  depth: number;
  /** Stored files removed by rule writes: their bytes go after the commit. */
  dropped: string[];
}

const runs = new WeakMap<EngineExecutor, RuleRun>();

export function runOf(edb: EngineExecutor, ctx: NodeContext): RuleRun {
  let run = runs.get(edb);
  if (!run) runs.set(edb, (run = { forms: new FormCache(edb, ctx.context), ctx, depth: 0, dropped: [] }));
  return run;
}

/** A rule's (or an automation step's) value from the record, the current loop row, a formula or a constant. */
export function ruleValueOf(source: RuleValue, record: RuleRecord, row: { table: string; values: Row } | undefined): unknown {
  if (source.type === 'constant') return source.value;
  const all = { ...record.system, ...record.values, ...record.children };
  if (source.type === 'formula') {
    const result = evaluateFormula(source.expression, { ...createFormulaContext(all, { now: new Date() }), ...(row ? { row } : {}) });
    return result.ok ? result.value : null;
  }
  const [table, column] = source.code.split('.');
  if (column === undefined) return all[source.code] ?? null;
  if (row && row.table === table) return row.values[column] ?? null;
  return (record.children[table] ?? []).map((r) => r[column] ?? null);
}

const toNumber = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : 0);

/** The target records a rule's conditions match (Draft or Effective), in id order. */
async function matching(target: RuntimeForm, edb: EngineExecutor, conditions: { field: string; value: unknown }[]): Promise<Row[]> {
  let q = anyDb(edb).selectFrom(target.mainTable).selectAll().where('Status', 'in', [BizObjectStatus.Draft, BizObjectStatus.Effective]);
  for (const c of conditions) {
    const field = target.fields.find((f) => f.code === c.field);
    const value = field ? toColumn(field, c.value) : c.value;
    q = c.value === null || c.value === '' ? q.where(c.field, 'is', null) : q.where(c.field, '=', value);
  }
  return q.orderBy('ObjectId').forUpdate().execute();
}

/**
 * A number the rule computed (a formula, an add or subtract) in the target number field's decimal places, as a formula
 * control rounds its result; a number given as it is (a constant, a copied field) is left for the save to check.
 */
function computedFor(target: RuntimeForm, code: string, value: unknown): unknown {
  const field = target.fields.find((f) => f.code === code);
  if (typeof value !== 'number' || field?.type.key !== 'number') return value;
  return coerceFormulaResult(value, { bindType: 'decimal', decimalPlaces: decimalPlacesOf(field.options) });
}

function mapped(target: RuntimeForm, rule: BusinessRule, record: RuleRecord, row: { table: string; values: Row } | undefined, current?: Row): Row {
  const out: Row = {};
  for (const m of rule.mappings) {
    const v = ruleValueOf(m.value, record, row);
    if (m.op === 'set') out[m.field] = m.value.type === 'formula' ? computedFor(target, m.field, v) : v;
    else out[m.field] = computedFor(target, m.field, toNumber(current?.[m.field]) + (m.op === 'add' ? 1 : -1) * toNumber(v));
  }
  return out;
}

export async function runRule(run: RuleRun, rule: BusinessRule, record: RuleRecord, writes: RuleWrites): Promise<void> {
  const target = await run.forms.require(rule.targetSchemaCode);
  const rows = rule.forEachRow ? (record.children[rule.forEachRow] ?? []).map((values) => ({ table: rule.forEachRow!, values })) : [undefined];
  for (const row of rows) {
    const conditions = rule.conditions.map((c) => ({ field: c.field, value: ruleValueOf(c.value, record, row) }));
    if (rule.action === 'insert') {
      await writes.insert(target, mapped(target, rule, record, row));
      continue;
    }
    const found = await matching(target, run.forms.edb, conditions);
    if (rule.action === 'delete') {
      for (const r of found) await writes.remove(target, String(r.ObjectId));
      continue;
    }
    // One match is saved from the row just read and locked; with several, a save's own rules may change the next
    // match, so each is read again when its turn comes.
    for (const r of found) await writes.update(target, String(r.ObjectId), mapped(target, rule, record, row, presentValues(target.fields, r)), found.length === 1 ? r : undefined);
    if (!found.length && rule.action === 'upsert') {
      // The inserted record also takes the match values, so that the next run finds it.
      const matchValues = Object.fromEntries(conditions.filter((c) => target.fields.some((f) => f.code === c.field)).map((c) => [c.field, c.value]));
      await writes.insert(target, { ...matchValues, ...mapped(target, rule, record, row) });
    }
  }
}

/** The form's published rules for `on`, in the order they run. */
export async function rulesFor(run: RuleRun, form: RuntimeForm, on: BusinessRuleTrigger): Promise<BusinessRule[]> {
  if (writingSnapshot()) return [];
  const code = form.node.code;
  return rulesToRun(await run.forms.perForm('rules', code, () => publishedRulesOf(run.forms.edb, code)), on);
}

/** Runs the form's published rules for `on` (or `given`, already read) against the record, in order; the first refused write fails them all. */
export async function runRules(run: RuleRun, form: RuntimeForm, record: RuleRecord, on: BusinessRuleTrigger, writes: RuleWrites, given?: BusinessRule[]): Promise<void> {
  const rules = writingSnapshot() ? [] : (given ?? (await rulesFor(run, form, on)));
  if (!rules.length) return;
  if (run.depth >= MAX_DEPTH) throw new AppError('BusinessRuleTooDeep', { detail: { schemaCode: form.node.code, depth: run.depth } });
  run.depth++;
  try {
    for (const rule of rules) {
      try {
        await runRule(run, rule, record, writes);
      } catch (error) {
        if (!(error instanceof AppError) || error.errorName === 'BusinessRuleWriteRefused' || error.errorName === 'BusinessRuleTooDeep') throw error;
        throw new AppError('BusinessRuleWriteRefused', {
          message: `业务规则“${rule.name}”写入数据失败：${error.message}`,
          detail: { schemaCode: form.node.code, ruleId: rule.id, ruleName: rule.name, targetSchemaCode: rule.targetSchemaCode, cause: { code: error.code, message: error.message, detail: error.detail } },
        });
      }
    }
  } finally {
    run.depth--;
  }
}

/** The record as rules read it, from a stored row and its presented sub-table rows. */
export function ruleRecordOf(form: RuntimeForm, row: Row, children: Record<string, Row[]>): RuleRecord {
  const system = presentSystem(row) as unknown as Row;
  return { objectId: String(row.ObjectId), values: presentValues(form.fields, row), children, system: { ...system, ObjectId: String(row.ObjectId) } };
}
