import type { contracts } from '@tritium/shared';
import type { FilterNode } from '@tritium/shared/query/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import type { Narrowing } from '../query/query.service.ts';
import { viewNarrowing } from '../view/view-query.service.ts';
import { portColumns } from './port-columns.ts';

type SortSpec = { field: string; direction: 'asc' | 'desc' };

// An export that follows a list view (docs/decisions/0017, 0020): the view's scope, fixed filter and quick search
// narrow the rows as the list does (view-query.service viewNarrowing), with the caller's filter and keyword on
// top; the view's columns are the export's default columns and its sort the default sort.

export interface ExportQuery {
  schemaCode: string;
  filter?: FilterNode;
  sort?: SortSpec[];
  viewCode?: string;
  keyword?: string;
}

/** What the export's pages query: the caller's filter alone, or the view's narrowing with it. */
export async function exportNarrowing(ctx: NodeContext, q: ExportQuery): Promise<Narrowing & { sort?: SortSpec[] }> {
  if (!q.viewCode) return { schemaCode: q.schemaCode, filter: q.filter, sort: q.sort };
  const { view, narrowing } = await viewNarrowing(ctx, { schemaCode: q.schemaCode, viewCode: q.viewCode, filter: q.filter, keyword: q.keyword });
  return { ...narrowing, sort: q.sort ?? (view.sort.length ? view.sort : undefined) };
}

/**
 * The export columns of a designed list view in its order (a sub-table column of the view brings all its columns),
 * or undefined when the code names no designed view of the form (the older placeholder "default" included).
 */
export async function viewColumnCodes(edb: EngineExecutor, form: RuntimeForm, viewCode: string | undefined): Promise<string[] | undefined> {
  if (!viewCode) return undefined;
  // Only a designed view has columns of its own (an undesigned form's default view shows a default set).
  const row = await edb.selectFrom('list_views').select('setting').where('schema_code', '=', form.node.code).where('code', '=', viewCode).executeTakeFirst();
  if (!row) return undefined;
  const view = row.setting as contracts.ViewSetting;
  const all = portColumns(form);
  const byCode = new Map(all.map((c) => [c.code.toLowerCase(), c]));
  const out: string[] = [];
  for (const column of view.columns) {
    const own = byCode.get(column.field.toLowerCase());
    if (own) out.push(own.code);
    else for (const c of all) if (c.grid?.code === column.field) out.push(c.code);
  }
  return [...new Set(out)];
}
