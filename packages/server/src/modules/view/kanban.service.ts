import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { ViewMode } from '@tritium/shared/constants/views';
import { BIZ_OBJECT_STATUSES } from '@tritium/shared/constants/data-status';
import type { FilterNode, QueryNode } from '@tritium/shared/query/index';
import { KANBAN_COLUMNS_MAX, kanbanMode, settingsOf, type KanbanSettings } from '@tritium/shared/view-modes/index';
import { AppError, parameterError } from '../../lib/app-error.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { narrowingCondition, queryRecords, queryWindow, type QueryOptions } from '../query/query.service.ts';
import { mainColumn, resolveColumn } from '../query/query-fields.ts';
import { MAIN, type CompileContext } from '../query/filter-compiler.ts';
import { anyDb } from '../business-data/runtime-form.ts';
import { engineOf } from '../function-node/node-context.ts';
import { sql } from 'kysely';
import { viewNarrowing, withCallerPaths } from './view-query.service.ts';
import { assertModeOn } from './view-modes.ts';

// The kanban board (view mode 8; docs/decisions/0047): columns by the view's group field, the counts from one GROUP BY
// of the view's records (scope, fixed filter, caller's filter, quick search: the list view's narrowing) and each
// column's first cards; a column's next page comes alone. Dragging a card saves the record through the form
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
    // Counts: one GROUP BY over the view's records (blank text counts as no value). Then each column's first cards:
    // an ORDER BY … LIMIT per column (a top-N sort), no count — measured against one windowed statement
    // (row_number over the partition), which must sort every record and was 5× slower on PGlite (docs/performance.md).
    const edb = engineOf(ctx);
    const cc: CompileContext = { edb, form, userId: ctx.userId, now: options.now ?? new Date(), issues: [] };
    const where = narrowingCondition(cc, narrowing);
    if (cc.issues.length) throw parameterError(cc.issues);
    const key = sql<string | null>`nullif(${sql.ref(`${MAIN}.${groupField}`)}::text, '')`;
    const grouped = await anyDb(edb).selectFrom(`${form.mainTable} as ${MAIN}`).where(where).select([key.as('g'), sql<number>`count(*)::int`.as('n')]).groupBy(key).execute();
    const counts = new Map<string | null, number>(grouped.map((r) => [(r.g as string | null) ?? null, Number(r.n)]));
    const sort = (config.sort ?? view.sort ?? []).filter((s) => resolveColumn(form, s.field));
    const asValue = (text: string): Value => (mainColumn(form, groupField)!.dataType === 'int' ? Number(text) : text);
    const values = columnValues(form, settings, [...counts.keys()].filter((k): k is string => k !== null).map(asValue));
    if (counts.has(null)) values.push(null);
    const shown = values.slice(0, KANBAN_COLUMNS_MAX);
    const columns: contracts.KanbanColumn[] = [];
    for (const value of shown) {
      const count = counts.get(value === null ? null : String(value)) ?? 0;
      if (!count) {
        columns.push({ value, count, list: [], hasMore: false });
        continue;
      }
      const filter: QueryNode = { type: 'And', children: [narrowing.filter ?? { type: 'And', children: [] }, columnFilter(groupField, value)] };
      const { list } = await queryWindow(ctx, { ...narrowing, filter, sort }, { offset: 0, limit: settings.pageSize, count: false }, options);
      columns.push({ value, count, list, hasMore: count > list.length });
    }
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
