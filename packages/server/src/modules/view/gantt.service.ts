import type { z } from 'zod';
import { sql } from 'kysely';
import type { contracts } from '@tritium/shared';
import { ViewMode } from '@tritium/shared/constants/views';
import { GANTT_MAX_TASKS, TREE_FORM_LIMITS } from '@tritium/shared/constants/limits';
import { ganttMode, settingsOf, type GanttSettings, type GanttTaskType } from '@tritium/shared/view-modes/index';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { engineSchemaName } from '../../db/database.ts';
import { engineOf, inEngineTransaction, type NodeContext } from '../function-node/node-context.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { execute } from '../business-data/record.service.ts';
import type { RecordFilesDeps } from '../business-data/record-files.ts';
import { findRecord } from '../business-data/records.repo.ts';
import { assertMayEditAll, readableIds } from '../business-data/record-policy.ts';
import { activeTreeParent } from '../form-design/tree-structure.ts';
import { queryWindow, type QueryOptions } from '../query/query.service.ts';
import { resolveColumn } from '../query/query-fields.ts';
import { viewNarrowing, withCallerPaths } from './view-query.service.ts';
import { assertModeOn } from './view-modes.ts';

// The Gantt chart (view mode 4; docs/decisions/0054). Its tasks are the view's records (the list's narrowing: scope,
// fixed filter, filter, quick search), at most 1,000 by start date. What a chart changes:
// - a task's dates, progress and parent are fields of the record: /update and /changelevel save them through the form
//   runtime's Save (/v1/form/action/execute), so the form's rules, rights and the tree checks decide, as for a card
//   dragged on the kanban or an event on the calendar;
// - its kind, its place among siblings and its finish-to-start links lie beside the record (gantt_tasks,
//   gantt_links): /updatetype, /sort and /savedependency ask what a Save would ask — the record readable, within the
//   caller's edit rights, Draft or Effective (assertMayEditAll) — and write in one transaction.

type TaskBody = { schemaCode: string; viewCode: string };

async function ganttOf(ctx: NodeContext, body: TaskBody & { personalViewId?: string; filter?: unknown; keyword?: string }) {
  const narrowed = await viewNarrowing(ctx, body as Parameters<typeof viewNarrowing>[1]);
  if (narrowed.view.mode !== ViewMode.Gantt) throw new AppError('ViewModeMismatch', { detail: { viewCode: narrowed.view.code, mode: ViewMode.Gantt } });
  await assertModeOn(ctx, ViewMode.Gantt);
  const settings = settingsOf(ganttMode, narrowed.view.settings);
  return { ...narrowed, settings, parentField: parentFieldOf(narrowed.form, settings) };
}

/** The view's parent field, else the tree form's parent control; none when the caller may not see it (0037). */
function parentFieldOf(form: RuntimeForm, settings: GanttSettings): string | null {
  const field = settings.parentField ?? activeTreeParent(form.definition, form.node.code);
  return field && resolveColumn(form, field) ? field : null;
}

/** An association's stored value as the parent's id (the id itself, or an object carrying it). */
function idOf(value: unknown): string | null {
  if (value == null || value === '') return null;
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    const id = v.ObjectId ?? v.objectId ?? v.id;
    return id == null ? null : String(id);
  }
  return String(value);
}

/** POST /v1/bizdata/view/gantt: the view's tasks with their levels, kinds, order and the links between them. */
export async function ganttTasks(ctx: NodeContext, body: z.infer<typeof contracts.GanttTasksBody>, options: QueryOptions = {}): Promise<contracts.GanttTasksResult> {
  return withCallerPaths(async () => {
    const { form, narrowing, settings, parentField } = await ganttOf(ctx, body);
    const sort = [{ field: settings.startField, direction: 'asc' as const }];
    const { list, total } = await queryWindow(ctx, { ...narrowing, sort }, { offset: 0, limit: GANTT_MAX_TASKS, count: true }, options);
    const ids = list.map((r) => String(r.ObjectId));
    const edb = engineOf(ctx);
    const placed = ids.length ? await edb.selectFrom('gantt_tasks').select(['object_id', 'task_type', 'sort_order']).where('schema_code', '=', form.node.code).where('object_id', 'in', ids).execute() : [];
    const byId = new Map(placed.map((p) => [p.object_id, p]));
    const links = ids.length && settings.dependencyStorage === 'table'
      ? await edb.selectFrom('gantt_links').select(['predecessor_id', 'successor_id']).where('schema_code', '=', form.node.code).where('successor_id', 'in', ids).where('predecessor_id', 'in', ids).orderBy('created_time').execute()
      : [];
    const shown = new Set(ids);
    const tasks = list.map((r) => {
      const id = String(r.ObjectId);
      const parent = parentField ? idOf(r[parentField]) : null;
      const p = byId.get(id);
      // A parent outside the view (filtered out, not visible) leaves the task at the top level.
      return { objectId: id, parentId: parent && shown.has(parent) ? parent : null, type: (p?.task_type ?? 'task') as GanttTaskType, sort: p?.sort_order ?? null };
    });
    return { list, total: total ?? list.length, hasMore: (total ?? 0) > list.length, parentField, tasks, links: links.map((l) => ({ predecessor: l.predecessor_id, successor: l.successor_id })) };
  });
}

/** POST /v1/gantt/task/update: a task moved, resized or given a progress — the view's fields, saved as the form saves. */
export async function updateTask(ctx: NodeContext, body: z.infer<typeof contracts.GanttUpdateBody>, files: RecordFilesDeps): Promise<{ objectId: string }> {
  const { form, settings } = await ganttOf(ctx, body);
  const values: Record<string, unknown> = {};
  if (body.start !== undefined) values[settings.startField] = body.start;
  if (body.end !== undefined) values[settings.endField] = body.end;
  if (body.progress !== undefined) {
    if (!settings.progressField) throw parameterError([{ path: 'progress', message: '该甘特图没有进度字段' }]);
    values[settings.progressField] = body.progress;
  }
  if (body.start === undefined || body.end === undefined) await assertDatesInOrder(engineOf(ctx), form, body.objectId, settings, values);
  await execute(ctx, { schemaCode: body.schemaCode, actionCode: 'Save', objectId: body.objectId, values }, files);
  return { objectId: body.objectId };
}

/** A move of one end only keeps the end at or after the start (the other end read from the record). */
async function assertDatesInOrder(edb: EngineExecutor, form: RuntimeForm, objectId: string, settings: GanttSettings, values: Record<string, unknown>): Promise<void> {
  if (values[settings.startField] === undefined && values[settings.endField] === undefined) return;
  const row = await findRecord(edb, form, objectId);
  if (!row) return; // the save answers "not found"
  const start = values[settings.startField] ?? row[settings.startField];
  const end = values[settings.endField] ?? row[settings.endField];
  if (start && end && new Date(String(start)).valueOf() > new Date(String(end)).valueOf()) throw parameterError([{ path: 'end', message: '结束时间不能早于开始时间' }]);
}

/**
 * POST /v1/gantt/task/changelevel: the task under another (null: at the top). The parent field is saved as the form
 * saves; on a tree form the save's tree checks refuse a loop and an eleventh level (0023); a view's own parent field
 * gets the same loop check here, walking up from the new parent (at most the tree's 10 levels).
 */
export async function changeLevel(ctx: NodeContext, body: z.infer<typeof contracts.GanttChangeLevelBody>, files: RecordFilesDeps): Promise<{ objectId: string }> {
  const { form, parentField } = await ganttOf(ctx, body);
  if (!parentField) throw new AppError('GanttNoLevels', { detail: { viewCode: body.viewCode } });
  if (body.parentId && !activeTreeParent(form.definition, form.node.code)) await assertNoLoop(engineOf(ctx), form, parentField, body.objectId, body.parentId);
  await execute(ctx, { schemaCode: body.schemaCode, actionCode: 'Save', objectId: body.objectId, values: { [parentField]: body.parentId } }, files);
  return { objectId: body.objectId };
}

async function assertNoLoop(edb: EngineExecutor, form: RuntimeForm, parentField: string, objectId: string, parentId: string): Promise<void> {
  const loop = () => new AppError('TreeParentCycle', { detail: { parentId, issues: [{ path: 'parentId', message: '上级数据不能是本条数据' }] } });
  let current: string | null = parentId;
  for (let depth = 0; current && depth <= TREE_FORM_LIMITS.maxLevels; depth++) {
    if (current === objectId) throw loop();
    const row = await findRecord(edb, form, current);
    if (!row) {
      if (current === parentId) throw new AppError('BizObjectNotFound', { detail: { objectId: parentId } });
      return;
    }
    current = idOf(row[parentField]);
  }
}

/** POST /v1/gantt/task/updatetype: a task or a milestone. */
export async function updateType(ctx: NodeContext, body: z.infer<typeof contracts.GanttUpdateTypeBody>): Promise<{ objectId: string }> {
  const { form } = await ganttOf(ctx, body);
  await inEngineTransaction(ctx, async (edb) => {
    await assertMayEditAll(edb, form, [body.objectId], ctx.userId);
    await edb
      .insertInto('gantt_tasks')
      .values({ schema_code: form.node.code, object_id: body.objectId, task_type: body.type, sort_order: null })
      .onConflict((oc) => oc.columns(['schema_code', 'object_id']).doUpdateSet({ task_type: body.type }))
      .execute();
  });
  return { objectId: body.objectId };
}

/** POST /v1/gantt/task/sort: sibling tasks in their new order; each may be changed by the caller. */
export async function sortTasks(ctx: NodeContext, body: z.infer<typeof contracts.GanttSortBody>): Promise<{ sorted: number }> {
  const { form } = await ganttOf(ctx, body);
  const ids = [...new Set(body.objectIds)];
  await inEngineTransaction(ctx, async (edb) => {
    await assertMayEditAll(edb, form, ids, ctx.userId);
    await edb
      .insertInto('gantt_tasks')
      .values(ids.map((id, i) => ({ schema_code: form.node.code, object_id: id, sort_order: i })))
      .onConflict((oc) => oc.columns(['schema_code', 'object_id']).doUpdateSet({ sort_order: sql`excluded.sort_order` }))
      .execute();
  });
  return { sorted: ids.length };
}

/**
 * POST /v1/gantt/task/savedependency: a task's finish-to-start predecessors, replaced. The caller must be able to
 * edit the task (its start then depends on them) and read each predecessor. A link that would close a loop is
 * refused (290032): no predecessor may already follow the task, walking the links forward (a recursive CTE whose
 * UNION stops on loops already stored).
 */
export async function saveDependency(ctx: NodeContext, body: z.infer<typeof contracts.GanttSaveDependencyBody>): Promise<{ objectId: string; predecessors: string[] }> {
  const { form, settings } = await ganttOf(ctx, body);
  if (settings.dependencyStorage !== 'table') throw new AppError('GanttDependenciesOff', { detail: { viewCode: body.viewCode } });
  const predecessors = [...new Set(body.predecessors)];
  if (predecessors.includes(body.objectId)) throw parameterError([{ path: 'predecessors', message: '任务不能依赖自己' }]);
  const code = form.node.code;
  await inEngineTransaction(ctx, async (edb) => {
    await assertMayEditAll(edb, form, [body.objectId], ctx.userId);
    if (predecessors.length) {
      const readable = await readableIds(edb, form, predecessors, ctx.userId);
      const unseen = predecessors.find((id) => !readable.has(id));
      if (unseen) throw new AppError('BizObjectNotFound', { detail: { objectId: unseen } });
      const links = sql.id(engineSchemaName(ctx.engineCode), 'gantt_links');
      const after = await sql<{ id: string }>`
        with recursive after(id) as (
          select successor_id from ${links} where schema_code = ${code} and predecessor_id = ${body.objectId}
          union
          select l.successor_id from ${links} l join after a on l.predecessor_id = a.id where l.schema_code = ${code}
        )
        select id from after where id in (${sql.join(predecessors)}) limit 1`.execute(edb);
      if (after.rows.length) throw new AppError('GanttDependencyCycle', { detail: { objectId: body.objectId, predecessor: after.rows[0]!.id } });
    }
    await edb.deleteFrom('gantt_links').where('schema_code', '=', code).where('successor_id', '=', body.objectId).execute();
    if (predecessors.length) {
      await edb.insertInto('gantt_links').values(predecessors.map((p) => ({ schema_code: code, predecessor_id: p, successor_id: body.objectId, created_by: ctx.userId }))).execute();
    }
  });
  return { objectId: body.objectId, predecessors };
}
