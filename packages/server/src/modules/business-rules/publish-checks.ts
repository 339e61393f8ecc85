import type { contracts } from '@tritium/shared';
import { SYSTEM_FIELDS } from '@tritium/shared/constants/form';
import { compileRollup, findCycles, type BusinessRule } from '@tritium/shared/business-rules/index';
import { dependenciesOf, parseFormula } from '@tritium/shared/formula/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { walkControls } from '../form-design/form-model.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { dependenciesOfKind, publishRules, replaceDependencies, rulesRowOf } from './business-rules.repo.ts';
import { ruleAndRollupReferences } from './references.ts';
import { setFormRules } from '../form-design/rules-port.ts';

// What publishing a form checks and records about its rules and rollups (docs/decisions/0015): every form and field
// they name exists (240050 rules, 240052 rollups), no rules write each other's forms in a cycle (240051), no
// rollups and formulas read each other across forms in a cycle (240053); then the draft rules go live and
// form_dependencies is rewritten for the form.

type Definition = contracts.FormDefinition;
type Issue = contracts.BusinessRuleIssue;
type ControlLike = Parameters<typeof compileRollup>[0];

const lower = (s: string) => s.toLowerCase();
const SYSTEM = new Set(SYSTEM_FIELDS.map(lower));
const ASSOCIATIONS = new Set(['associationQuery', 'associationQueryMulti']);
const COMPUTED = new Set(['formula', 'rollup']);

/** A definition's controls by code: main-table ones (type key) and each sub-table's columns. */
function fieldsOf(definition: Definition) {
  const main = new Map<string, { type: string; options: Record<string, unknown> }>();
  const grids = new Map<string, Set<string>>();
  walkControls(definition.controls, ({ control, gridCode }) => {
    if (gridCode) grids.get(lower(gridCode))?.add(lower(control.code));
    else if (control.type === 'gridView') grids.set(lower(control.code), new Set());
    else main.set(lower(control.code), { type: control.type, options: control.options as Record<string, unknown> });
  });
  return { main, grids };
}

/** Problems of a form's rules against its draft and the published forms they write. */
export async function ruleIssues(forms: FormCache, schemaCode: string, draft: Definition, rules: readonly BusinessRule[]): Promise<Issue[]> {
  const issues: Issue[] = [];
  const own = fieldsOf(draft);
  for (const [i, rule] of rules.entries()) {
    const add = (path: string, message: string) => issues.push({ ruleId: rule.id, path: `rules.${i}.${path}`, message: `${rule.name}：${message}` });
    if (rule.forEachRow && !own.grids.has(lower(rule.forEachRow))) add('forEachRow', `子表${rule.forEachRow}不在本表单中`);
    const checkSource = (path: string, value: BusinessRule['mappings'][number]['value']) => {
      if (value.type === 'formula') {
        const parsed = parseFormula(value.expression);
        if (!parsed.ast) add(path, `公式有误：${parsed.errors[0]?.message ?? ''}`);
        return;
      }
      if (value.type !== 'field') return;
      const [table, column] = value.code.split('.').map(lower);
      const known = column === undefined ? own.main.has(table) || SYSTEM.has(table) : own.grids.get(table)?.has(column);
      if (!known) add(path, `本表单没有字段${value.code}`);
    };
    if (lower(rule.targetSchemaCode) === lower(schemaCode)) {
      add('targetSchemaCode', '不能写入本表单');
      continue;
    }
    const target = await forms.get(rule.targetSchemaCode);
    if (!target) {
      add('targetSchemaCode', `目标表单${rule.targetSchemaCode}不存在或尚未发布`);
      continue;
    }
    const targetField = (code: string) => target.fields.find((f) => lower(f.code) === lower(code));
    rule.mappings.forEach((m, j) => {
      const field = targetField(m.field);
      if (!field) add(`mappings.${j}.field`, `目标表单没有字段${m.field}`);
      else if (COMPUTED.has(field.type.key)) add(`mappings.${j}.field`, `${m.field}由公式或汇总计算，不能写入`);
      else if (m.op !== 'set' && field.sqlType !== 'numeric') add(`mappings.${j}.op`, `${m.field}不是数字，不能累加`);
      checkSource(`mappings.${j}.value`, m.value);
    });
    rule.conditions.forEach((c, j) => {
      const field = targetField(c.field);
      const scalar = field && !field.sqlType.endsWith('[]') && field.sqlType !== 'jsonb';
      if (!scalar && !['objectid', 'seqno', 'name'].includes(lower(c.field))) add(`conditions.${j}.field`, `目标表单没有可匹配的字段${c.field}`);
      checkSource(`conditions.${j}.value`, c.value);
    });
  }
  return issues;
}

/** Problems of the draft's rollups: their sub-table and column, or the other form, its association to this form and its field. */
async function rollupIssues(forms: FormCache, schemaCode: string, draft: Definition): Promise<Issue[]> {
  const issues: Issue[] = [];
  const own = fieldsOf(draft);
  const specs: ControlLike[] = [];
  walkControls(draft.controls, ({ control, gridCode }) => {
    if (!gridCode && control.type === 'rollup') specs.push(control);
  });
  for (const control of specs) {
    const spec = compileRollup(control);
    if (!spec) continue;
    const add = (message: string) => issues.push({ ruleId: null, path: `controls.${control.code}`, message: `${control.code}：${message}` });
    if (spec.filterText && !spec.filter) add('筛选条件有误');
    if (!spec.sourceSchemaCode) {
      const grid = own.grids.get(lower(spec.sourceCode));
      if (!grid) add(`子表${spec.sourceCode}不在本表单中`);
      else if (spec.sourceField && !grid.has(lower(spec.sourceField))) add(`子表中没有字段${spec.sourceField}`);
      continue;
    }
    if (lower(spec.sourceSchemaCode) === lower(schemaCode)) {
      // Records of this same form (a tree's children): checked against the draft.
      const link = own.main.get(lower(spec.sourceCode));
      if (!link || !ASSOCIATIONS.has(link.type) || lower(String(link.options.schemaCode ?? '')) !== lower(schemaCode)) add(`${spec.sourceCode}不是关联本表单的关联表单字段`);
      else if (spec.sourceField && !own.main.has(lower(spec.sourceField))) add(`本表单没有字段${spec.sourceField}`);
      continue;
    }
    const source = await forms.get(spec.sourceSchemaCode);
    const link = source?.fields.find((f) => f.code === spec.sourceCode);
    if (!source) add(`表单${spec.sourceSchemaCode}不存在或尚未发布`);
    else if (!link || !ASSOCIATIONS.has(link.type.key) || lower(String(link.options.schemaCode ?? '')) !== lower(schemaCode)) add(`${spec.sourceCode}不是关联本表单的关联表单字段`);
    else if (spec.sourceField && !source.fields.some((f) => f.code === spec.sourceField)) add(`表单${spec.sourceSchemaCode}没有字段${spec.sourceField}`);
  }
  return issues;
}

/** Field-level edges of one form: formulas to what they read, rollups to the rows' field (`form:code`, `form:grid.code`). */
function edgesOf(schemaCode: string, definition: Definition, edges: Map<string, string[]>, wanted: Set<string>): void {
  const key = (form: string, code: string) => `${lower(form)}:${lower(code)}`;
  walkControls(definition.controls, ({ control, gridCode }) => {
    const self = key(schemaCode, gridCode ? `${gridCode}.${control.code}` : control.code);
    const o = control.options as Record<string, unknown>;
    if (control.type === 'formula' && typeof o.expression === 'string') edges.set(self, dependenciesOf(o.expression).map((d) => key(schemaCode, d)));
    if (control.type !== 'rollup' || gridCode) return;
    const spec = compileRollup(control);
    if (!spec) return;
    const source = spec.sourceSchemaCode ?? schemaCode;
    const reads = [spec.sourceField, ...(spec.filter ? dependenciesOf(spec.filter) : [])].filter((c): c is string => !!c);
    edges.set(self, reads.map((c) => key(source, spec.sourceSchemaCode ? c : c.includes('.') ? c : `${spec.sourceCode}.${c}`)));
    if (spec.sourceSchemaCode) wanted.add(spec.sourceSchemaCode);
  });
}

/** Cycles of rollups and formulas through this form, following rollups into the published forms they read. */
async function rollupCycles(forms: FormCache, schemaCode: string, draft: Definition): Promise<string[][]> {
  const edges = new Map<string, string[]>();
  const wanted = new Set<string>();
  edgesOf(schemaCode, draft, edges, wanted);
  const loaded = new Set([lower(schemaCode)]);
  for (let next = [...wanted].find((c) => !loaded.has(lower(c))); next; next = [...wanted].find((c) => !loaded.has(lower(c)))) {
    loaded.add(lower(next));
    const form = await forms.get(next);
    if (form) edgesOf(form.node.code, form.definition, edges, wanted);
  }
  return findCycles(edges).filter((cycle) => cycle.some((n) => n.startsWith(`${lower(schemaCode)}:`)));
}

/** Cycles of forms writing each other through their rules, with this form's draft rules in place of its published ones. */
async function ruleCycles(edb: EngineExecutor, schemaCode: string, rules: readonly BusinessRule[]): Promise<string[][]> {
  const edges = new Map<string, string[]>();
  const add = (from: string, to: string) => edges.set(from, [...(edges.get(from) ?? []), to]);
  for (const d of await dependenciesOfKind(edb, 'rule')) if (d.schema_code !== schemaCode) add(d.schema_code, d.depends_on);
  for (const rule of rules) if (rule.enabled) add(schemaCode, rule.targetSchemaCode);
  return findCycles(edges).filter((cycle) => cycle.includes(schemaCode));
}

/**
 * Publish's part (in its transaction, before the tables change): refuses what does not fit, then — unless a dry
 * run — makes the draft rules the published ones and records what the form's rollups read and its rules write.
 */
export async function publishRulesAndRollups(edb: EngineExecutor, schemaCode: string, draft: Definition, options: { dryRun: boolean }): Promise<void> {
  const forms = new FormCache(edb);
  const rules = (await rulesRowOf(edb, schemaCode))?.draft ?? [];
  const rollupProblems = await rollupIssues(forms, schemaCode, draft);
  if (rollupProblems.length) throw new AppError('RollupInvalid', { detail: { issues: rollupProblems } });
  const rollups = await rollupCycles(forms, schemaCode, draft);
  if (rollups.length) throw new AppError('RollupCycle', { detail: { cycles: rollups } });
  const ruleProblems = await ruleIssues(forms, schemaCode, draft, rules);
  if (ruleProblems.length) throw new AppError('BusinessRuleInvalid', { detail: { issues: ruleProblems } });
  const cycles = await ruleCycles(edb, schemaCode, rules);
  if (cycles.length) throw new AppError('BusinessRuleCycle', { detail: { cycles } });
  if (options.dryRun) return;
  await publishRules(edb, schemaCode, rules);
  const rows: { kind: 'rollup' | 'rule'; item: string; dependsOn: string }[] = [];
  walkControls(draft.controls, ({ control, gridCode }) => {
    const spec = !gridCode && control.type === 'rollup' ? compileRollup(control) : null;
    if (spec?.sourceSchemaCode) rows.push({ kind: 'rollup', item: control.code, dependsOn: spec.sourceSchemaCode });
  });
  for (const rule of rules) if (rule.enabled) rows.push({ kind: 'rule', item: rule.id, dependsOn: rule.targetSchemaCode });
  await replaceDependencies(edb, schemaCode, rows);
}

export type { RuntimeForm };

/** Plugs publish's rule checks and checkreference's rule part into form design (its port, docs/decisions/0026). */
export function registerFormRules(): void {
  setFormRules({ publishRulesAndRollups, ruleAndRollupReferences });
}
