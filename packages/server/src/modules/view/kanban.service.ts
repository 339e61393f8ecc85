import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { ViewMode } from '@tritium/shared/constants/views';
import { BIZ_OBJECT_STATUSES } from '@tritium/shared/constants/data-status';
import type { FilterNode, QueryNode } from '@tritium/shared/query/index';
import { KANBAN_COLUMNS_MAX, kanbanMode, settingsOf, type KanbanSettings } from '@tritium/shared/view-modes/index';
import { AppError } from '../../lib/app-error.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { distinctValues, queryRecords, type QueryOptions } from '../query/query.service.ts';
import { resolveColumn } from '../query/query-fields.ts';
import { viewNarrowing, withCallerPaths } from './view-query.service.ts';
import { assertModeOn } from './view-modes.ts';

// The kanban board (view mode 8; docs/decisions/0047): columns by the view's group field, each column's count from one
// GROUP BY of the view's records (scope, fixed filter, caller's filter, quick search: the list view's narrowing), and
// the first cards of each column; a column's next page comes alone. Dragging a card saves the record through the form
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
    const { form, narrowing, settings } = n;
    const groupField = settings.groupField;
    // A group field hidden from the caller groups nothing: one column of every record they see (nothing told away).
    if (!resolveColumn(form, groupField)) {
      const page = await queryRecords(ctx, { ...narrowing, pageIndex: 0, pageSize: settings.pageSize }, options);
      return { groupField, columns: [{ value: null, count: page.total, list: page.list, hasMore: page.hasMore }], columnsLeftOut: 0 };
    }
    // Counts per value: one GROUP BY over the view's records (distinct values of the query engine).
    const groups = await distinctValues(ctx, { ...narrowing, field: groupField, pageIndex: 0, pageSize: -1 }, options);
    const counts = new Map<Value, number>(groups.list.map((g) => [g.value as Value, g.count]));
    const total = (await queryRecords(ctx, { ...narrowing, pageIndex: 0, pageSize: 1 }, options)).total;
    const blank = total - groups.list.reduce((sum, g) => sum + g.count, 0);
    const values = columnValues(form, settings, [...counts.keys()]);
    if (blank > 0) values.push(null);
    const shown = values.slice(0, KANBAN_COLUMNS_MAX);
    const columns: contracts.KanbanColumn[] = [];
    for (const value of shown) {
      const count = value === null ? blank : (counts.get(value) ?? 0);
      if (!count) {
        columns.push({ value, count: 0, list: [], hasMore: false });
        continue;
      }
      const page = await columnPage(ctx, n, value, 0, options);
      columns.push({ value, count, list: page.list, hasMore: page.hasMore });
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
