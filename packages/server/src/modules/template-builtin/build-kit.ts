import { contracts } from '@tritium/shared';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { BusinessRules, type BusinessRuleInput } from '@tritium/shared/business-rules/index';
import { BoardDefinition, type Widget } from '@tritium/shared/report/index';
import { WorkflowTemplate, type WorkflowTemplateInput } from '@tritium/shared/workflow/index';
import { AppError } from '../../lib/app-error.ts';
import { createNode } from '../function-node/function-node.service.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { loadDesign, publishDesign, saveDesign } from '../form-design/form-design.service.ts';
import { saveRules } from '../business-rules/business-rules.service.ts';
import { designerLoad, saveViews } from '../view/view-settings.service.ts';
import { act, info, publishTemplate, saveTemplate, startFromForm } from '../workflow/workflow.service.ts';
import { saveBoard } from '../report/board.service.ts';
import { execute, type StartWorkflow } from '../business-data/record.service.ts';
import type { RecordFilesDeps } from '../business-data/record-files.ts';

// The parts every built-in template is made of (docs/decisions/0132): each goes through the service the designer or
// the form runtime calls, so a template is held to every check a person's app is, and its sample records run their
// formulas, rollups, business rules and flows as a person's records do.

/** Who builds, where, with what, and the day the sample data's dates are counted from. */
export interface TemplateBuildContext extends NodeContext {
  files: RecordFilesDeps;
  startWorkflow?: StartWorkflow;
  /** The install day: sample dates are placed around it. */
  today: Date;
}

/** What a builder answers: the app, and its forms and dashboards by the builder's own keys. */
export interface BuiltTemplate {
  appCode: string;
  forms: Record<string, string>;
  boards: Record<string, string>;
}

export type TemplateBuilder = (ctx: TemplateBuildContext) => Promise<BuiltTemplate>;

type Control = { type: string; code: string; options?: Record<string, unknown>; controls?: Control[] };

/** Controls by type, their name first: the designer's definitions in short. */
export const c = {
  text: (code: string, name: string, options: Record<string, unknown> = {}): Control => ({ type: 'textBox', code, options: { displayName: name, ...options } }),
  area: (code: string, name: string, options: Record<string, unknown> = {}): Control => ({ type: 'textArea', code, options: { displayName: name, ...options } }),
  number: (code: string, name: string, options: Record<string, unknown> = {}): Control => ({ type: 'number', code, options: { displayName: name, ...options } }),
  money: (code: string, name: string, options: Record<string, unknown> = {}): Control => ({ type: 'number', code, options: { displayName: name, decimalPlaces: 2, ...options } }),
  date: (code: string, name: string, options: Record<string, unknown> = {}): Control => ({ type: 'dateTime', code, options: { displayName: name, displayFormat: 'yyyy-mm-dd', ...options } }),
  choice: (code: string, name: string, items: string[], options: Record<string, unknown> = {}): Control => ({ type: 'dropDown', code, options: { displayName: name, defaultItems: items, ...options } }),
  radio: (code: string, name: string, items: string[], options: Record<string, unknown> = {}): Control => ({ type: 'radioList', code, options: { displayName: name, defaultItems: items, ...options } }),
  user: (code: string, name: string, options: Record<string, unknown> = {}): Control => ({ type: 'user', code, options: { displayName: name, ...options } }),
  department: (code: string, name: string, options: Record<string, unknown> = {}): Control => ({ type: 'department', code, options: { displayName: name, ...options } }),
  file: (code: string, name: string): Control => ({ type: 'attachment', code, options: { displayName: name } }),
  link: (code: string, name: string, schemaCode: string, options: Record<string, unknown> = {}): Control => ({ type: 'associationQuery', code, options: { displayName: name, schemaCode, ...options } }),
  formula: (code: string, name: string, expression: string, options: Record<string, unknown> = {}): Control => ({ type: 'formula', code, options: { displayName: name, expression, ...options } }),
  rollup: (code: string, name: string, options: Record<string, unknown>): Control => ({ type: 'rollup', code, options: { displayName: name, ...options } }),
  grid: (code: string, name: string, controls: Control[]): Control => ({ type: 'gridView', code, options: { displayName: name }, controls }),
};

/** The app node, with its icon and colour. */
export async function newApp(ctx: TemplateBuildContext, app: { name: string; icon: string; iconColor: string; summary: string }): Promise<string> {
  const node = await createNode(ctx, { displayName: app.name, nodeType: FunctionNodeType.AppPackage, icon: app.icon, iconColor: app.iconColor, summary: app.summary });
  return node.code;
}

/** A form's node (a workflow node when it will have a flow), not yet designed. */
export async function newForm(ctx: TemplateBuildContext, appCode: string, name: string, workflow = false): Promise<string> {
  const node = await createNode(ctx, { appCode, displayName: name, nodeType: workflow ? FunctionNodeType.WorkflowModule : FunctionNodeType.FormModule });
  return node.code;
}

/**
 * Saves and publishes a form's design (again, when it is republished with rollups over forms made after it), with its
 * business rules saved as a draft first so that the publish publishes them too; `submitRules` refuse a Submit whose
 * condition holds, with their message.
 */
export async function designForm(
  ctx: TemplateBuildContext,
  schemaCode: string,
  design: { name: string; controls: Control[]; nameSchema?: string; summary?: string; rules?: BusinessRuleInput[]; submitRules?: { condition: string; message: string }[] },
): Promise<void> {
  const attributes = { displayName: design.name, nameSchema: design.nameSchema ?? '', summary: design.summary ?? '', submitRules: design.submitRules ?? [] };
  const definition = contracts.FormDefinition.parse({ attributes, controls: design.controls });
  const loaded = await loadDesign(ctx, schemaCode);
  const saved = await saveDesign(ctx, { schemaCode, baseVersion: loaded.draft.version, definition });
  if (design.rules) {
    const { issues } = await saveRules(ctx, { schemaCode, rules: BusinessRules.parse(design.rules) });
    if (issues.length) throw new AppError('BuiltinTemplateFailed', { detail: { template: design.name, step: '业务规则', issues } });
  }
  await publishDesign(ctx, { schemaCode, version: saved.version, confirm: [], dryRun: false });
}

type ViewInput = Partial<contracts.ViewSetting> & { columns: { field: string }[] };

/** The form's views: the first takes the default view's buttons, filters and search; the others are as given. */
export async function designViews(ctx: TemplateBuildContext, schemaCode: string, views: ViewInput[]): Promise<void> {
  const { views: current } = await designerLoad(ctx, schemaCode);
  const base = current[0]!;
  const list = views.map((view, i) => contracts.ViewSetting.parse(i === 0 ? { ...base, ...view } : { ...base, code: `V${i}`, title: view.title ?? base.title, ...view }));
  await saveViews(ctx, { schemaCode, views: list }, new Date());
}

/** Saves and publishes a form's flow. */
export async function designFlow(ctx: TemplateBuildContext, schemaCode: string, template: WorkflowTemplateInput): Promise<void> {
  await saveTemplate(ctx, { schemaCode, template: WorkflowTemplate.parse(template) });
  await publishTemplate(ctx, { schemaCode });
}

type BoardWidget = Omit<Widget, 'layout' | 'id' | 'totals'> & { wide?: boolean };

/** Widgets in rows of the 12-column grid: two to a row, a wide one alone; number cards 4 rows high, charts 8. */
function laidOut(widgets: BoardWidget[]) {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  return widgets.map(({ wide, ...w }, i) => {
    const width = wide ? 12 : 6;
    if (x + width > 12) (y += rowHeight, (x = 0), (rowHeight = 0));
    const layout = { x, y, w: width, h: w.type === 'number' ? 4 : 8 };
    x += width;
    rowHeight = Math.max(rowHeight, layout.h);
    return { ...w, id: `w${i + 1}`, layout };
  });
}

/** A dashboard node with its widgets. */
export async function newBoard(ctx: TemplateBuildContext, appCode: string, name: string, widgets: BoardWidget[]): Promise<string> {
  const node = await createNode(ctx, { appCode, displayName: name, nodeType: FunctionNodeType.DashBoardModule });
  const laid = laidOut(widgets);
  await saveBoard(ctx, { code: node.code, definition: BoardDefinition.parse({ widgets: laid }) });
  return node.code;
}

/** A sample record submitted as a person submits it (its flow started on a workflow form); answers its id. */
export async function submitRecord(ctx: TemplateBuildContext, schemaCode: string, values: Record<string, unknown>, children?: Record<string, Record<string, unknown>[]>): Promise<string> {
  const result = await execute(ctx, { schemaCode, actionCode: 'Submit', values, children }, ctx.files, ctx.startWorkflow ?? startFromForm);
  return result.objectId!;
}

/**
 * Agrees to every item of the record's flow the builder holds, node after node, until none is left (the installer
 * gets an approval's items when the org has nobody for it: the flow's "nobody found" rule).
 */
export async function approveAsBuilder(ctx: TemplateBuildContext, schemaCode: string, objectId: string, text = '同意'): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const state = await info(ctx, { schemaCode, objectId });
    const item = state.myItems[0];
    if (!item) return;
    await act(ctx, { itemId: item.workItemId }, { type: 'submit', itemId: item.workItemId, opinion: { text } });
  }
}

const DAY_MS = 86_400_000;
const SHANGHAI_MS = 8 * 3_600_000;

/** The date `offset` days from the install day, as midnight in China (yyyy-mm-ddT00:00:00+08:00). */
export function dayOf(ctx: Pick<TemplateBuildContext, 'today'>, offset: number): string {
  const local = new Date(ctx.today.getTime() + SHANGHAI_MS + offset * DAY_MS);
  return `${local.toISOString().slice(0, 10)}T00:00:00+08:00`;
}
