import { z } from 'zod';
import { contracts } from '@tritium/shared';
import { SYSTEM_FIELDS } from '@tritium/shared/constants/form';
import { ControlDefinition, controlMissingSettings, controlStorage, controlTypeByKey, controlTypesInGroup, type AnyControlType, type ControlTypeKey } from '@tritium/shared/controls/index';
import { WorkflowTemplate, NEW_ACTIVITY_DEFAULTS, type ParticipantSource } from '@tritium/shared/workflow/index';
import { BoardDefinition, type Widget } from '@tritium/shared/report/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// An app from a description (docs/decisions/0126): the JSON schema the chat model answers against, made from the
// control registry (its basic types, each with its own options schema), and the check of a proposal — the model's or
// the person's edit of it — by the registry's own schemas, the form definition's whole-tree checks, the workflow
// model and the board model. A proposal that fails any of them is refused (480201) before anything is stored.

/** The control types a proposal may use: the registry's basic controls (text, numbers, dates, choices, people, files…). */
export const PROPOSABLE_TYPES: readonly AnyControlType[] = controlTypesInGroup('basic');
const proposable = new Set(PROPOSABLE_TYPES.map((t) => t.key));

/** Settings every control has that a proposal has no use for (conditions, formulas, data links): left out of the schema. */
const UNPROPOSED_OPTIONS = ['visible', 'hideCondition', 'readonly', 'description', 'dataLink', 'defaultFormula', 'itemColors', 'association', 'rangeRule'];

type JsonSchema = Record<string, unknown>;

/** One control type's field as the model writes it: the type's key, a code, and the type's own options schema. */
function fieldSchemaOf(type: AnyControlType): JsonSchema {
  const options = z.toJSONSchema(type.options, { io: 'input', unrepresentable: 'any' }) as JsonSchema & { properties?: Record<string, JsonSchema> };
  const properties = { ...(options.properties ?? {}) };
  for (const key of UNPROPOSED_OPTIONS) delete properties[key];
  delete options.$schema;
  return {
    type: 'object',
    description: type.displayName['zh-CN'],
    properties: {
      type: { const: type.key },
      code: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,39}$', description: '字段编码：英文字母开头，只含字母、数字和下划线' },
      options: { ...options, properties, additionalProperties: false },
    },
    required: ['type', 'code', 'options'],
    additionalProperties: false,
  };
}

let cachedFields: JsonSchema[] | undefined;

/** The proposal's JSON schema (structured output): field types and settings from the registry, approvers from the roles. */
export function proposalJsonSchema(roles: readonly string[]): JsonSchema {
  cachedFields ??= PROPOSABLE_TYPES.map(fieldSchemaOf);
  const name = { type: 'string', minLength: 1, maxLength: 50 };
  const approver = {
    anyOf: [
      { type: 'object', description: '发起人的部门主管审批', properties: { kind: { const: 'manager' } }, required: ['kind'], additionalProperties: false },
      ...(roles.length ? [{ type: 'object', description: '某个角色的成员审批', properties: { kind: { const: 'role' }, roleName: { type: 'string', enum: [...roles] } }, required: ['kind', 'roleName'], additionalProperties: false }] : []),
    ],
  };
  const { BOUNDS } = { BOUNDS: contracts.APP_PROPOSAL_BOUNDS };
  return {
    type: 'object',
    properties: {
      appName: name,
      forms: {
        type: 'array',
        minItems: 1,
        maxItems: BOUNDS.forms,
        items: {
          type: 'object',
          properties: {
            name,
            fields: { type: 'array', minItems: 1, maxItems: BOUNDS.fields, items: { anyOf: cachedFields } },
            listColumns: { type: 'array', items: { type: 'string' }, description: '列表显示的字段编码，可含 CreatedTime、CreatedBy 等系统字段' },
            workflow: { anyOf: [{ type: 'null' }, { type: 'object', properties: { approvalName: name, approver }, required: ['approvalName', 'approver'], additionalProperties: false }] },
          },
          required: ['name', 'fields', 'listColumns', 'workflow'],
          additionalProperties: false,
        },
      },
      dashboard: {
        anyOf: [
          { type: 'null' },
          {
            type: 'object',
            properties: {
              name,
              charts: {
                type: 'array',
                maxItems: BOUNDS.charts,
                items: {
                  type: 'object',
                  properties: {
                    title: name,
                    form: { type: 'integer', minimum: 0, description: '表单在 forms 中的序号（从 0 开始）' },
                    type: { type: 'string', enum: [...contracts.PROPOSED_CHART_TYPES] },
                    groupBy: { type: ['string', 'null'], description: '分组字段编码；数字卡片为 null' },
                    sumField: { type: ['string', 'null'], description: '求和的数字字段编码；计数为 null' },
                  },
                  required: ['title', 'form', 'type', 'groupBy', 'sumField'],
                  additionalProperties: false,
                },
              },
            },
            required: ['name', 'charts'],
            additionalProperties: false,
          },
        ],
      },
    },
    required: ['appName', 'forms', 'dashboard'],
    additionalProperties: false,
  };
}

export interface ProposalIssue {
  path: string;
  message: string;
}

export interface CheckedForm {
  name: string;
  definition: contracts.FormDefinition;
  listColumns: string[];
  template: WorkflowTemplate | null;
}

export interface CheckedProposal {
  appName: string;
  forms: CheckedForm[];
  dashboard: { name: string; board: BoardDefinition } | null;
}

/** System fields a list shows and a chart groups by (the view designer's: not the ids). */
const SYSTEM = new Set<string>(SYSTEM_FIELDS.filter((f) => !['ObjectId', 'ParentObjectId', 'WorkflowInstanceId'].includes(f)));

/** The organisation's roles by name (an approval names one). */
export async function rolesByName(edb: EngineExecutor): Promise<Map<string, string>> {
  const rows = await edb.selectFrom('org_units').select(['id', 'name']).where('unit_type', '=', 'Role').orderBy('sort_key').limit(200).execute();
  return new Map(rows.map((r) => [r.name, r.id]));
}

const refuse = (issues: ProposalIssue[]) =>
  new AppError('AiAppProposalInvalid', { detail: { reason: issues.slice(0, 3).map((i) => `${i.path} ${i.message}`).join('；'), issues: issues.slice(0, 50) } });

const zodIssues = (error: z.ZodError, prefix: string): ProposalIssue[] => error.issues.map((i) => ({ path: [prefix, ...i.path].filter((p) => p !== '').join('.'), message: i.message }));

/** The approval flow of a form: start → the approval → end, its approver from the proposal. */
function templateOf(workflow: NonNullable<contracts.ProposedForm['workflow']>, roles: Map<string, string>, at: string, issues: ProposalIssue[]): WorkflowTemplate | null {
  let source: ParticipantSource;
  if (workflow.approver.kind === 'manager') source = { type: 'originatorManager', levels: 1 };
  else {
    const roleId = roles.get(workflow.approver.roleName);
    if (!roleId) {
      issues.push({ path: `${at}.workflow.approver.roleName`, message: `组织中没有角色“${workflow.approver.roleName}”` });
      return null;
    }
    source = { type: 'roles', ids: [roleId] };
  }
  return WorkflowTemplate.parse({
    activities: [
      { type: 'Start', code: 'Start', name: '发起' },
      { type: 'Approve', code: 'Approve1', name: workflow.approvalName, participants: { sources: [source] }, ...NEW_ACTIVITY_DEFAULTS.Approve },
      { type: 'End', code: 'End', name: '结束' },
    ],
    routes: [
      { from: 'Start', to: 'Approve1' },
      { from: 'Approve1', to: 'End' },
    ],
  });
}

const CHART_LAYOUT_W = 6;

/** A proposed chart as a board widget: count or sum, grouped by a field (a chart) or not (a number card). */
function widgetOf(chart: contracts.ProposedChart, index: number, schemaCode: string): Widget {
  const measure = chart.sumField ? { aggregate: 'sum' as const, field: chart.sumField } : { aggregate: 'count' as const };
  return {
    id: `w${index + 1}`,
    type: chart.type,
    title: chart.title,
    layout: { x: (index % 2) * CHART_LAYOUT_W, y: Math.floor(index / 2) * 8, w: CHART_LAYOUT_W, h: chart.type === 'number' ? 4 : 8 },
    source: { schemaCode },
    dimensions: chart.type !== 'number' && chart.groupBy ? [{ field: chart.groupBy }] : [],
    measures: [measure],
    totals: false,
  } as Widget;
}

/**
 * Checks a proposal with the registry's and the designers' own schemas; answers what the designers will be given, or
 * refuses with every problem found (480201). `schemaCodes` names the forms' codes for the dashboard's widgets (the
 * check before creation gives placeholders; the board is built again with the real codes).
 */
export function checkProposal(input: unknown, roles: Map<string, string>, schemaCodes?: readonly string[]): CheckedProposal {
  const parsed = contracts.AppProposal.safeParse(input);
  if (!parsed.success) throw refuse(zodIssues(parsed.error, ''));
  const proposal = parsed.data;
  const issues: ProposalIssue[] = [];
  const fieldsOf: Map<string, contracts.FormDefinition['controls'][number]>[] = [];
  const forms: CheckedForm[] = proposal.forms.map((form, f) => {
    const at = `forms.${f}`;
    const controls: contracts.FormDefinition['controls'] = [];
    form.fields.forEach((field, i) => {
      const where = `${at}.fields.${i}`;
      if (!proposable.has(field.type as ControlTypeKey)) {
        issues.push({ path: `${where}.type`, message: controlTypeByKey(field.type) ? `控件类型“${field.type}”不能由 AI 生成` : `未知的控件类型“${field.type}”` });
        return;
      }
      const control = ControlDefinition.safeParse({ type: field.type, code: field.code, options: field.options });
      if (!control.success) return void issues.push(...zodIssues(control.error, where));
      const missing = controlMissingSettings(controlTypeByKey(field.type)!, control.data.options);
      if (missing.length) return void issues.push({ path: `${where}.options`, message: `缺少设置：${missing.join('、')}` });
      controls.push(control.data);
    });
    const definition = contracts.FormDefinition.safeParse({ attributes: { displayName: form.name }, controls });
    if (!definition.success) issues.push(...zodIssues(definition.error, `${at}.definition`));
    const codes = new Map(controls.map((c) => [c.code, c]));
    fieldsOf.push(codes);
    form.listColumns.forEach((column, i) => {
      if (!codes.has(column) && !SYSTEM.has(column)) issues.push({ path: `${at}.listColumns.${i}`, message: `列表列“${column}”不是表单的字段` });
    });
    const template = form.workflow ? templateOf(form.workflow, roles, at, issues) : null;
    return { name: form.name, definition: definition.success ? definition.data : ({ attributes: { displayName: form.name }, controls } as unknown as contracts.FormDefinition), listColumns: form.listColumns, template };
  });
  let dashboard: CheckedProposal['dashboard'] = null;
  if (proposal.dashboard) {
    const widgets = proposal.dashboard.charts.map((chart, c) => {
      const at = `dashboard.charts.${c}`;
      const codes = fieldsOf[chart.form];
      if (!codes) {
        issues.push({ path: `${at}.form`, message: `没有第 ${chart.form + 1} 个表单` });
        return null;
      }
      if (chart.type !== 'number' && !chart.groupBy) issues.push({ path: `${at}.groupBy`, message: '图表需要一个分组字段' });
      if (chart.groupBy && !codes.has(chart.groupBy) && !SYSTEM.has(chart.groupBy)) issues.push({ path: `${at}.groupBy`, message: `分组字段“${chart.groupBy}”不是表单的字段` });
      if (chart.sumField) {
        const control = codes.get(chart.sumField);
        const numeric = control && ['decimal', 'int'].includes(controlStorage(controlTypeByKey(control.type)!, control.options).dataType);
        if (!numeric) issues.push({ path: `${at}.sumField`, message: `求和字段“${chart.sumField}”不是数字字段` });
      }
      return widgetOf(chart, c, schemaCodes?.[chart.form] ?? `F${chart.form}`);
    });
    const board = BoardDefinition.safeParse({ widgets: widgets.filter(Boolean) });
    if (!board.success) issues.push(...zodIssues(board.error, 'dashboard'));
    else dashboard = { name: proposal.dashboard.name, board: board.data };
  }
  if (issues.length) throw refuse(issues);
  return { appName: proposal.appName, forms, dashboard };
}
