import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { AppError, parameterError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { compileFilter, type CompileContext, type Issue } from '../query/filter-compiler.ts';
import { mainColumn } from '../query/query-fields.ts';
import { isSortable } from '@tritium/shared/query/index';
import { defaultColumns, defaultView, isHierarchyParent, viewFields } from './view-fields.ts';
import { ViewMode } from '@tritium/shared/constants/views';
import { engineSchemaName } from '../../db/database.ts';
import { ensureTreeParentIndex } from '../form-design/tree-structure.ts';
import { modesSwitchedOff } from './view-modes.ts';
import { checkModeFields, viewModeOf } from '@tritium/shared/view-modes/index';

// View settings (calls.md §7 "Schema, views, workbench"; docs/decisions/0017): GET /v1/view/setting,
// /view/designer/load, /page/header, /designer/column/default and POST /v1/view/designer/save. Who may open the form
// reads its views; only administrators of its app design them.

type View = contracts.ViewSetting;

/** The form's designed views in order, or its default view when none was designed. */
export async function loadViews(edb: EngineExecutor, form: RuntimeForm): Promise<View[]> {
  const rows = await edb.selectFrom('list_views').select('setting').where('schema_code', '=', form.node.code).orderBy('sort_key').execute();
  return rows.length ? rows.map((r) => r.setting as View) : [defaultView(form)];
}

/** One view (the first when no code is given); 290001 otherwise. */
export async function viewOf(edb: EngineExecutor, form: RuntimeForm, code?: string): Promise<View> {
  const views = await loadViews(edb, form);
  const view = code === undefined ? views[0] : views.find((v) => v.code === code);
  if (!view) throw new AppError('ViewNotFound', { detail: { viewCode: code } });
  return view;
}

const formOf = (ctx: NodeContext, schemaCode: string) => getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);

function assertDesigner(form: RuntimeForm): void {
  if (!form.isAppAdmin) throw new AppError('ViewDesignForbidden', { detail: { schemaCode: form.node.code } });
}

export async function viewSetting(ctx: NodeContext, schemaCode: string): Promise<z.infer<typeof contracts.ViewSettingResult>> {
  const form = await formOf(ctx, schemaCode);
  return { schemaCode: form.node.code, views: await loadViews(engineOf(ctx), form), canDesign: form.isAppAdmin, modesOff: await modesSwitchedOff(ctx) };
}

export async function designerLoad(ctx: NodeContext, schemaCode: string) {
  const form = await formOf(ctx, schemaCode);
  assertDesigner(form);
  return { schemaCode: form.node.code, views: await loadViews(engineOf(ctx), form), fields: viewFields(form), modesOff: await modesSwitchedOff(ctx) };
}

export async function defaultColumnsOf(ctx: NodeContext, schemaCode: string) {
  const form = await formOf(ctx, schemaCode);
  assertDesigner(form);
  return { columns: defaultColumns(form), fields: viewFields(form) };
}

/** The header a list draws: the view's columns with their fields, and the fields offered to filter on. */
export async function pageHeader(ctx: NodeContext, schemaCode: string, viewCode?: string) {
  const form = await formOf(ctx, schemaCode);
  const view = await viewOf(engineOf(ctx), form, viewCode);
  const fields = new Map(viewFields(form).map((f) => [f.code, f]));
  const columns = view.columns.flatMap((c) => {
    const f = fields.get(c.field);
    return f ? [{ ...f, width: c.width ?? null, fixed: c.fixed ?? null }] : [];
  });
  const definition = viewModeOf(view.mode);
  const settings = (definition?.settings.safeParse(view.settings ?? {}).data ?? {}) as Record<string, unknown>;
  const named = (definition?.fieldRoles ?? []).flatMap((role) => {
    const value = settings[role.key];
    return Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];
  });
  const modeFields = [...new Set(named)].flatMap((code) => fields.get(code) ?? []);
  return { view, columns, filters: view.filters.flatMap((code) => fields.get(code) ?? []), modeFields };
}

/** Every problem of the views, as 777 issues (path `views.<i>.…`); nothing is saved when there is one. */
export function checkViews(cc: CompileContext, views: View[], modesOff: readonly number[] = []): Issue[] {
  const { form } = cc;
  const fields = viewFields(form);
  const issues = cc.issues;
  const known = (code: string) => mainColumn(form, code) !== undefined;
  const codes = new Set<string>();
  views.forEach((view, i) => {
    const at = `views.${i}`;
    if (codes.has(view.code)) issues.push({ path: `${at}.code`, message: `视图编码 ${view.code} 重复` });
    codes.add(view.code);
    const fieldIssue = (path: string, code: string, ok: boolean, why = `字段 ${code} 不存在`) => !ok && issues.push({ path, message: why });
    view.columns.forEach((c, j) => fieldIssue(`${at}.columns.${j}.field`, c.field, known(c.field)));
    const columnCodes = new Set(view.columns.map((c) => c.field));
    if (columnCodes.size !== view.columns.length) issues.push({ path: `${at}.columns`, message: '列重复' });
    view.sort.forEach((s, j) => {
      const column = mainColumn(form, s.field);
      fieldIssue(`${at}.sort.${j}.field`, s.field, !!column && isSortable(column.dataType), `不能按字段 ${s.field} 排序（仅短文本、日期、整数、是否、数字）`);
    });
    view.filters.forEach((code, j) => fieldIssue(`${at}.filters.${j}`, code, known(code)));
    view.quickSearch.forEach((code, j) => {
      const type = mainColumn(form, code)?.dataType;
      fieldIssue(`${at}.quickSearch.${j}`, code, type === 'string' || type === 'text', `快速搜索字段 ${code} 须是文本字段`);
    });
    view.stats.forEach((s, j) => {
      const type = mainColumn(form, s.field)?.dataType;
      fieldIssue(`${at}.stats.${j}.field`, s.field, type === 'decimal' || type === 'int', `字段 ${s.field} 不是数字字段`);
    });
    const actionCodes = new Set<string>();
    view.actions.forEach((a, j) => {
      if (actionCodes.has(a.code)) issues.push({ path: `${at}.actions.${j}.code`, message: `按钮编码 ${a.code} 重复` });
      actionCodes.add(a.code);
      if (a.type === 'Link' && !a.url) issues.push({ path: `${at}.actions.${j}.url`, message: '链接按钮须填写链接' });
    });
    if (view.filter) compileFilter(cc, view.filter, `${at}.filter`);
    // The mode's settings name fields of the right kind; a mode whose feature switch is off is not saved (0047).
    const definition = viewModeOf(view.mode);
    if (modesOff.includes(view.mode)) issues.push({ path: `${at}.mode`, message: '该视图类型未开启' });
    if (definition) {
      const settings = definition.settings.parse(view.settings ?? {}) as Record<string, unknown>;
      for (const issue of checkModeFields(definition, settings, fields, form.node.code)) issues.push({ path: `${at}.settings.${issue.path}`, message: issue.message });
    }
    if (view.mode === ViewMode.Hierarchy) {
      // The tree follows an association of the form to itself (docs/decisions/0023).
      if (!view.parentField) issues.push({ path: `${at}.parentField`, message: '层级视图须选择上级字段' });
      else if (!isHierarchyParent(form, view.parentField)) issues.push({ path: `${at}.parentField`, message: `上级字段 ${view.parentField} 须是关联本表单的关联表单字段` });
    }
    view.styleRules.forEach((rule, j) => {
      compileFilter(cc, rule.filter, `${at}.styleRules.${j}.filter`);
      if (rule.field !== undefined) fieldIssue(`${at}.styleRules.${j}.field`, rule.field, columnCodes.has(rule.field), `字段 ${rule.field} 不是该视图的列`);
    });
  });
  return issues;
}

/** Replaces the form's views with `views` (in that order). Administrators of the app only. */
export async function saveViews(ctx: NodeContext, body: { schemaCode: string; views: View[] }, now: Date) {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  assertDesigner(form);
  const modesOff = await modesSwitchedOff(ctx);
  // A view already saved in a mode since switched off may stay as it is; a new one may not take that mode.
  const before = new Map((await loadViews(edb, form)).map((v) => [v.code, v.mode]));
  const refused = modesOff.filter((mode) => body.views.some((v) => v.mode === mode && before.get(v.code) !== mode));
  const issues = checkViews({ edb, form, userId: ctx.userId, now, issues: [] }, body.views, refused);
  if (issues.length) throw parameterError(issues);
  await ctx.db.transaction().execute(async (trx) => {
    const tx = engineOf({ db: trx as unknown as typeof ctx.db, engineCode: ctx.engineCode });
    await tx.deleteFrom('list_views').where('schema_code', '=', form.node.code).execute();
    await tx
      .insertInto('list_views')
      .values(body.views.map((v, i) => ({ schema_code: form.node.code, code: v.code, sort_key: i, setting: JSON.stringify(v), modified_by: ctx.userId, modified_time: now })))
      .execute();
  });
  // A hierarchy view finds children by its parent column (docs/decisions/0023); a calendar, a timeline and a Gantt
  // chart read by their start and end dates (a range, or the first 1,000 by start: 0054). The same B-tree of one
  // column serves each, made once.
  for (const field of new Set(body.views.flatMap(indexedColumns))) {
    await ensureTreeParentIndex(edb, engineSchemaName(ctx.engineCode), form.mainTable, field);
  }
  return { schemaCode: form.node.code, views: body.views, canDesign: true, modesOff };
}

const DATED_MODES: readonly number[] = [ViewMode.Calendar, ViewMode.Timeline, ViewMode.Gantt];

/** The main-table columns a view reads by: its parent field, or the start and end of a dated mode. */
function indexedColumns(view: { mode?: number; parentField?: string | null; settings?: unknown }): string[] {
  if (view.mode === ViewMode.Hierarchy) return view.parentField ? [view.parentField] : [];
  if (!DATED_MODES.includes(view.mode ?? ViewMode.List)) return [];
  const settings = (view.settings ?? {}) as { startField?: string; endField?: string };
  return [settings.startField, settings.endField].filter((f): f is string => !!f);
}
