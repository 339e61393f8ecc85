import { contracts } from '@tritium/shared';
import { SYSTEM_FIELDS, type ControlDependencyKind } from '@tritium/shared/constants/form';
import { TREE_LIMIT_MESSAGE } from '@tritium/shared/constants/limits';
import { controlCodeSchema, controlMissingSettings } from '@tritium/shared/controls/index';
import { engineSchemaName } from '../../db/database.ts';
import { codeTaken } from '../function-node/function-node.repo.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { getFormNodeOrThrow } from './form-access.ts';
import { customIndexesOf, findFormSchema, formTablesOf } from './form-design.repo.ts';
import { definitionOf, ensureDraft } from './form-design.service.ts';
import { flattenControls, formModelOf, walkControls } from './form-model.ts';
import { ruleAndRollupReferences } from './rules-port.ts';
import { ensureTreeParentIndex, treeParentControl, treeShape, treeShapeProblem } from './tree-structure.ts';

// The designer's checks on the saved draft (calls.md §7 "Form design"; docs/decisions/0006 "Checks"). All need the
// form's app administered, like the designer itself.

async function designedForm(ctx: NodeContext, schemaCode: string) {
  const edb = engineOf(ctx);
  const node = await getFormNodeOrThrow(edb, await viewerOf(edb, ctx), schemaCode, 'administer');
  const row = await ensureDraft(edb, node, ctx.userId);
  return { edb, node, row, draft: definitionOf(row.draft) };
}

const reservedCodes = new Set(SYSTEM_FIELDS.map((f) => f.toLowerCase()));

/**
 * A control code for the form's draft (valid, not a system field, not used by another control anywhere in the
 * form), or — without schemaCode — a new schema (node) code for the engine.
 */
export async function checkCodeAvailable(ctx: NodeContext, body: { schemaCode?: string; code: string }) {
  if (!body.schemaCode) {
    if (!contracts.NodeCode.safeParse(body.code).success) return { available: false, reason: 'invalid' };
    return (await codeTaken(engineOf(ctx), body.code)) ? { available: false, reason: 'taken' } : { available: true };
  }
  const { draft } = await designedForm(ctx, body.schemaCode);
  if (!controlCodeSchema.safeParse(body.code).success) return { available: false, reason: 'invalid' };
  const lower = body.code.toLowerCase();
  if (reservedCodes.has(lower)) return { available: false, reason: 'reserved' };
  const used = flattenControls(draft.controls).some((p) => p.control.code.toLowerCase() === lower);
  return used ? { available: false, reason: 'taken' } : { available: true };
}

/** `{code}` or `{grid.code}` in an expression, any case. */
function mentions(text: unknown, code: string): boolean {
  return typeof text === 'string' && new RegExp(`\\{(?:[A-Za-z0-9_]+\\.)?${code}\\}`, 'i').test(text);
}
const same = (value: unknown, code: string) => typeof value === 'string' && value.toLowerCase() === code.toLowerCase();

type Reference = contracts.ControlReference;

/**
 * What in the form depends on a control (domain.md §5: shown before it is removed): the title rule, the tree
 * control, formulas, rollups, associated properties, hide conditions, association filters, data links and
 * association fills, sequence-number parts, sub-table summaries, and custom indexes. Other kinds (submit and
 * business rules, automations, buttons) arrive with their features.
 */
export async function checkReference(ctx: NodeContext, body: { schemaCode: string; controlCode: string }): Promise<{ references: Reference[] }> {
  const { edb, node, draft } = await designedForm(ctx, body.schemaCode);
  const code = body.controlCode;
  if (!controlCodeSchema.safeParse(code).success) return { references: [] };
  const references: Reference[] = [];
  const add = (kind: ControlDependencyKind, name: string, detail?: string) => references.push({ kind, schemaCode: node.code, name, ...(detail ? { detail } : {}) });
  const { attributes } = draft;
  if (mentions(attributes.nameSchema, code)) add('other', '数据标题', attributes.nameSchema);
  if (same(attributes.treeStructureControlCode, code)) add('other', '树形结构', attributes.treeStructureControlCode);
  for (const rule of attributes.submitRules ?? []) if (mentions(rule.condition, code)) add('submitRule', rule.message || '提交校验', rule.condition);
  walkControls(draft.controls, ({ control, type }) => {
    if (same(control.code, code)) return;
    const o = control.options as Record<string, any>;
    const name = `${o.displayName ?? type.displayName['zh-CN']}`;
    const found = (kind: ControlDependencyKind) => add(kind, name, control.code);
    if (mentions(o.expression, code)) found('formula');
    if (type.key === 'rollup' && (same(o.sourceCode, code) || same(o.sourceField, code) || mentions(o.filter, code))) found('rollup');
    if (mentions(o.hideCondition, code)) found('hideCondition');
    if (mentions(o.defaultFormula, code)) found('formula');
    if (mentions(o.associationFilter, code)) found('associationFilter');
    if (o.dataLink?.conditions?.some((c: { field: string }) => same(c.field, code))) found('dataLinkage');
    if (same(o.associationCode, code)) found('other');
    if (o.mappingControls && Object.keys(o.mappingControls).some((k) => same(k, code))) found('dataLinkage');
    if (o.seqNoStructure?.some((p: { type: string; code?: string }) => p.type === 'formControl' && same(p.code, code))) found('other');
    if (o.gridViewFields?.some((f: string) => same(f, code))) found('other');
  });
  for (const index of await customIndexesOf(edb, node.code)) {
    if (index.fields.some((f) => same(f, code))) add('index', index.index_name, index.fields.join(','));
  }
  // Business rules of this form and others, rollups of other forms (docs/decisions/0015).
  references.push(...(await ruleAndRollupReferences(edb, node.code, code)));
  return { references };
}

/** Controls of the draft still missing required settings (the registry's missingSettings), and form attributes. */
export async function incomplete(ctx: NodeContext, schemaCode: string): Promise<contracts.IncompleteResult> {
  const { draft } = await designedForm(ctx, schemaCode);
  const list: contracts.IncompleteResult['list'] = [];
  walkControls(draft.controls, ({ control, type, gridCode }) => {
    const missing = controlMissingSettings(type, control.options);
    if (!missing.length) return;
    const displayName = (control.options as { displayName?: string }).displayName ?? type.displayName['zh-CN'];
    list.push({ code: control.code, type: control.type, displayName, ...(gridCode ? { gridCode } : {}), missing: [...missing] });
  });
  const attributes = draft.attributes.isTreeStructure && !draft.attributes.treeStructureControlCode ? ['treeStructureControlCode'] : [];
  return { list, attributes };
}

const TREE_MESSAGES: Record<string, string> = {
  noControl: '请选择树形结构的上级控件',
  notAssociation: '树形结构的上级控件须是主表中的关联表单控件',
  otherForm: '树形结构的上级控件须关联本表单，不能关联其他表单',
  cycle: '数据中存在循环引用，不能开启树形展示',
};

/**
 * domain.md §5 tree structure: the draft's tree control is a single association query of the main table to this
 * same form, and the published rows fit TREE_FORM_LIMITS (levels, records) without a cycle.
 */
export async function checkTreeStructure(ctx: NodeContext, schemaCode: string, parentCode?: string): Promise<contracts.CheckTreeStructureResult> {
  const { edb, node, row, draft } = await designedForm(ctx, schemaCode);
  const refuse = (problem: contracts.CheckTreeStructureResult['problem'] & string, records = 0, levels = 0) =>
    ({ valid: false, problem, message: TREE_MESSAGES[problem] ?? TREE_LIMIT_MESSAGE, records, levels });
  const code = parentCode ?? draft.attributes.treeStructureControlCode;
  if (!code) return refuse('noControl');
  const place = flattenControls(draft.controls).find((p) => !p.gridCode && same(p.control.code, code));
  if (!place || place.type.key !== 'associationQuery') return refuse('notAssociation');
  if (!treeParentControl(draft, node.code, code)) return refuse('otherForm');

  // Rows can only break the limits once the control's column is published.
  const table = (await formTablesOf(edb, node.code)).get('');
  const column = formModelOf(definitionOf(row.published)).columns.find((c) => c.code === place.control.code);
  if (!table || !column || column.sqlType !== 'text') return { valid: true, records: 0, levels: 0 };
  const schema = engineSchemaName(ctx.engineCode);
  // The walks and the hierarchy view find children by this column (docs/decisions/0023).
  await ensureTreeParentIndex(edb, schema, table, column.code);
  const shape = await treeShape(edb, schema, table, column.code);
  const problem = treeShapeProblem(shape);
  if (problem) return refuse(problem, shape.records, shape.levels);
  return { valid: true, records: shape.records, levels: shape.levels };
}
