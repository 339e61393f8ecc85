import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { ViewMode } from '@tritium/shared/constants/views';
import { BIZ_OBJECT_STATUSES } from '@tritium/shared/constants/data-status';
import type { FilterNode, QueryNode } from '@tritium/shared/query/index';
import { KANBAN_COLUMNS_MAX, kanbanMode, settingsOf, type KanbanSettings } from '@tritium/shared/view-modes/index';
import { AppError, parameterError } from '../../lib/app-error.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { narrowingCondition, queryRecords, type QueryOptions } from '../query/query.service.ts';
import { mainColumn, resolveColumn } from '../query/query-fields.ts';
import { MAIN, type CompileContext } from '../query/filter-compiler.ts';
import { anyDb } from '../business-data/runtime-form.ts';
import { presentRecord } from '../business-data/record.presenter.ts';
import { engineOf } from '../function-node/node-context.ts';
import { sql } from 'kysely';
import { isSortable } from '@tritium/shared/query/index';
import { viewNarrowing, withCallerPaths } from './view-query.service.ts';
import { assertModeOn } from './view-modes.ts';

// The kanban board (view mode 8; docs/decisions/0047): columns by the view's group field, each column's count and first
// cards from one statement over the view's records (scope, fixed filter, caller's filter, quick search: the list view's
// narrowing) — counts and ranks by window functions partitioned by the group column; a column's next page comes alone. Dragging a card saves the record through the form
// runtime (/v1/form/action/execute), so the board adds no write path of its own.

type Value = string | number | null;
type Narrowed = Awaited<ReturnType<typeof viewNarrowing>>;

async function kanbanOf(ctx: NodeContext, body: { schemaCode: string; viewCode: string }) {
  const narrowed = await viewNarrowing(ctx, body);
  if (narrowed.view.mode !== ViewMode.Kanban) throw new AppError('ViewModeMismatch', { detail: { viewCode: narrowed.view.code, mode: ViewMode.Kanban } });
  await assertModeOn(ctx, ViewMode.Kanban);
  return { ...narrowed, settings: settingsOf(kanbanMode, narrowed.view.settings) };
}

/** The column's condition: the group field equals the value, or is blank for the column of records without one. */
const columnFilter = (field: string, value: Value): FilterNode => (value === null ? { field, operator: 'IsBlank' } : { field, operator: 'Equal', value });

/** The values a board shows as columns, in order: the field's items (or every status), then values found in records. */
function columnValues(form: RuntimeForm, settings: KanbanSettings, found: Value[]): Value[] {
  const field = form.fields.find((f) => f.code === settings.groupField);
  const items = field && Array.isArray(field.options.defaultItems) ? (field.options.defaultItems as unknown[]).map(String) : [];
  const declared: Value[] = settings.groupField === 'Status' || field?.type.key === 'status' ? [...BIZ_OBJECT_STATUSES] : items;
  return [...declared, ...found.filter((v) => !declared.includes(v))];
}

async function columnPage(ctx: NodeContext, n: Narrowed & { settings: KanbanSettings }, value: Value, pageIndex: number, options: QueryOptions) {
  const { form, view, config, narrowing, settings } = n;
  const sort = (config.sort ?? view.sort)?.filter((s) => resolveColumn(form, s.field));
  const filter: QueryNode = { type: 'And', children: [narrowing.filter ?? { type: 'And', children: [] }, columnFilter(settings.groupField, value)] };
  return queryRecords(ctx, { ...narrowing, filter, sort, pageIndex, pageSize: settings.pageSize }, options);
}

export async function kanbanBoard(ctx: NodeContext, body: z.infer<typeof contracts.KanbanBoardBody>, options: QueryOptions = {}): Promise<contracts.KanbanBoardResult> {
  return withCallerPaths(async () => {
    const n = await kanbanOf(ctx, body);
    const { form, view, config, narrowing, settings } = n;
    const groupField = settings.groupField;
    // A group field hidden from the caller groups nothing: one column of every record they see (nothing told away).
    if (!resolveColumn(form, groupField)) {
      const page = await queryRecords(ctx, { ...narrowing, pageIndex: 0, pageSize: settings.pageSize }, options);
      return { groupField, columns: [{ value: null, count: page.total, list: page.list, hasMore: page.hasMore }], columnsLeftOut: 0 };
    }
    // One statement over the view's records: each record's column (blank text counts as no value), its place in the
    // column by the view's order, and the column's count — then only the first cards of each column leave the database.
    const edb = engineOf(ctx);
    const cc: CompileContext = { edb, form, userId: ctx.userId, now: options.now ?? new Date(), issues: [] };
    const where = narrowingCondition(cc, narrowing);
    const sort = (config.sort ?? view.sort ?? []).filter((s) => resolveColumn(form, s.field) && isSortable(mainColumn(form, s.field)!.dataType));
    if (cc.issues.length) throw parameterError(cc.issues);
    const order = [...sort.map((s) => ({ code: s.field, direction: s.direction ?? 'asc' })), { code: 'CreatedTime', direction: 'desc' }, { code: 'ObjectId', direction: 'desc' }];
    const orderBy = sql.join(order.map((o) => sql`${sql.ref(`${MAIN}.${o.code}`)} ${sql.raw(o.direction === 'desc' ? 'desc' : 'asc')}`));
    const key = sql<string | null>`nullif(${sql.ref(`${MAIN}.${groupField}`)}::text, '')`;
    const ranked = anyDb(edb)
      .selectFrom(`${form.mainTable} as ${MAIN}`)
      .where(where)
      .selectAll(MAIN)
      .select([key.as('__group'), sql<number>`row_number() over (partition by ${key} order by ${orderBy})`.as('__rank'), sql<number>`count(*) over (partition by ${key})`.as('__count')]);
    const rows = await anyDb(edb).selectFrom(ranked.as('k')).selectAll('k').where('k.__rank', '<=', settings.pageSize).orderBy('k.__rank').execute();
    const found = new Map<string | null, { count: number; list: Record<string, unknown>[] }>();
    for (const row of rows) {
      const group = (row.__group as string | null) ?? null;
      const entry = found.get(group) ?? { count: Number(row.__count), list: [] };
      entry.list.push(presentRecord(form, row));
      found.set(group, entry);
    }
    const asValue = (text: string): Value => (mainColumn(form, groupField)!.dataType === 'int' ? Number(text) : text);
    const values = columnValues(form, settings, [...found.keys()].filter((k): k is string => k !== null).map(asValue));
    if (found.has(null)) values.push(null);
    const shown = values.slice(0, KANBAN_COLUMNS_MAX);
    const columns = shown.map((value) => {
      const entry = found.get(value === null ? null : String(value));
      return { value, count: entry?.count ?? 0, list: entry?.list ?? [], hasMore: (entry?.count ?? 0) > (entry?.list.length ?? 0) };
    });
    return { groupField, columns, columnsLeftOut: values.length - shown.length };
  });
}

/** One column's page `pageIndex` (of the view's kanban page size). */
export async function kanbanColumn(ctx: NodeContext, body: z.infer<typeof contracts.KanbanColumnBody>, options: QueryOptions = {}) {
  return withCallerPaths(async () => {
    const n = await kanbanOf(ctx, body);
    if (!resolveColumn(n.form, n.settings.groupField)) return queryRecords(ctx, { ...n.narrowing, pageIndex: body.pageIndex, pageSize: n.settings.pageSize }, options);
    return columnPage(ctx, n, body.value, body.pageIndex, options);
  });
}
