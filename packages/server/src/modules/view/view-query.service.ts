import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { ViewScope } from '@tritium/shared/constants/views';
import { FORM_RUNTIME_PATH } from '@tritium/shared/constants/entry-routes';
import type { DataScope, FilterNode } from '@tritium/shared/query/index';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { findRecord } from '../business-data/records.repo.ts';
import { execute } from '../business-data/record.service.ts';
import type { RecordFilesDeps } from '../business-data/record-files.ts';
import { columnStat, distinctValues, queryRecords, type Narrowing, type QueryOptions } from '../query/query.service.ts';
import { resolveColumn } from '../query/query-fields.ts';
import { personalViewOf } from './personal-views.service.ts';
import { viewOf } from './view-settings.service.ts';
import { shortPathFor, sitePath } from './short-links.ts';

// The view's data (calls.md §7 "Business data": /v1/bizdata/view/query, /view/delete, /property/distinct, /shortlink;
// docs/decisions/0017). A view narrows through the query engine: its scope becomes a data scope, its fixed filter, the
// caller's filter and the quick search one And — one statement, as every query (docs/decisions/0013).

export interface ViewNarrowingInput {
  schemaCode: string;
  viewCode?: string;
  personalViewId?: string;
  filter?: FilterNode;
  keyword?: string;
}

const SCOPES: Record<number, DataScope> = { [ViewScope.ViewOwn]: 'own', [ViewScope.ViewOwnDept]: 'ownDept', [ViewScope.ViewAll]: 'all' };
const EMPTY: FilterNode = { type: 'And', children: [] };

/** The narrower of two view scopes (own and own department are both narrower than all; own wins over own department). */
const narrower = (a: number, b: number) => (a === ViewScope.ViewOwn || b === ViewScope.ViewOwn ? ViewScope.ViewOwn : Math.min(a, b));

/**
 * The view's narrowing: the designed view's scope (not for administrators of the app: they manage every record) and
 * a personal view's (for everyone), the view's fixed filter, the caller's filter (or the personal view's) and the
 * keyword over the quick-search fields.
 */
export async function viewNarrowing(ctx: NodeContext, body: ViewNarrowingInput) {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const personal = body.personalViewId ? (await personalViewOf(ctx, body.personalViewId, form.node.code)).row : undefined;
  const view = await viewOf(edb, form, body.viewCode ?? personal?.view_page_id);
  let scope: number = form.isAppAdmin ? ViewScope.ViewAll : view.scope;
  if (personal) scope = narrower(scope, personal.scope_type);
  const config = (personal?.config ?? {}) as contracts.PersonalViewConfig;
  const keyword = (body.keyword ?? config.keyword ?? '').trim();
  // The keyword searches the quick-search fields the caller sees (a hidden one would tell its values away).
  const searched = view.quickSearch.filter((field) => resolveColumn(form, field));
  const search: FilterNode = keyword && searched.length
    ? { type: 'Or', children: searched.map((field) => ({ field, operator: 'Contains' as const, value: keyword })) }
    : EMPTY;
  const filter: FilterNode = { type: 'And', children: [body.filter ?? config.filter ?? EMPTY, EMPTY, search] };
  // The view's fixed filter is the designer's: it holds whatever the caller may see of its fields.
  const narrowing: Narrowing = { schemaCode: form.node.code, filter, fixedFilter: view.filter ?? undefined, scope: SCOPES[scope] ?? 'all' };
  return { form, view, config, narrowing };
}

/** The query engine's 777 names `filter.children.0…` for the caller's filter: name it as the caller sent it. */
export async function withCallerPaths<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const detail = error instanceof AppError ? (error.detail as { issues?: { path: string; message: string }[] } | undefined) : undefined;
    if (error instanceof AppError && error.code === 777 && detail?.issues) {
      const issues = detail.issues.map((i) => ({
        ...i,
        path: i.path.replace(/^filter\.children\.0(?=\.|$)/, 'filter').replace(/^fixedFilter(?=\.|$)/, 'view.filter').replace(/^filter\.children\.2(?=\.|$)/, 'keyword'),
      }));
      throw new AppError('ParameterVerificationFailed', { detail: { ...detail, issues } });
    }
    throw error;
  }
}

export async function viewQuery(ctx: NodeContext, body: z.infer<typeof contracts.ViewQueryBody>, options: QueryOptions = {}): Promise<contracts.ViewQueryResult> {
  return withCallerPaths(async () => {
    const { form, view, config, narrowing } = await viewNarrowing(ctx, body);
    // Sorts and statistics over fields hidden from the caller are left out (docs/decisions/0037).
    const sort = (body.sort ?? config.sort ?? view.sort)?.filter((s) => resolveColumn(form, s.field));
    const page = await queryRecords(ctx, { ...narrowing, sort, pageIndex: body.pageIndex, pageSize: body.pageSize }, options);
    const statFields = [...new Set(view.stats.map((s) => s.field))].filter((field) => resolveColumn(form, field));
    if (!body.withStats || !statFields.length) return page;
    const stats: Record<string, contracts.ColumnStatResult> = {};
    for (const field of statFields) stats[field] = await columnStat(ctx, { ...narrowing, field }, options);
    return { ...page, stats };
  });
}

/** Distinct values of a field among the view's records (the filter panel's choices); `keyword` narrows as usual. */
export async function propertyDistinct(ctx: NodeContext, body: z.infer<typeof contracts.PropertyDistinctBody>, options: QueryOptions = {}) {
  return withCallerPaths(async () => {
    const { narrowing } = await viewNarrowing(ctx, body);
    return distinctValues(ctx, { ...narrowing, field: body.field, pageIndex: body.pageIndex, pageSize: body.pageSize }, options);
  });
}

/** Removes the selected records one by one, each checked as a Remove of the form runtime; answers what failed. */
export async function viewDelete(ctx: NodeContext, body: { schemaCode: string; objectIds: string[] }, files: RecordFilesDeps): Promise<z.infer<typeof contracts.ViewDeleteResult>> {
  await getRuntimeFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  const removed: string[] = [];
  const failed: z.infer<typeof contracts.RecordFailure>[] = [];
  for (const objectId of new Set(body.objectIds)) {
    try {
      await execute(ctx, { schemaCode: body.schemaCode, actionCode: 'Remove', objectId }, files);
      removed.push(objectId);
    } catch (error) {
      failed.push(failureOf(objectId, error));
    }
  }
  return { removed, failed };
}

export function failureOf(objectId: string, error: unknown): { objectId: string; errorCode: number; message: string } {
  if (error instanceof AppError) {
    const issues = (error.detail as { issues?: { path: string; message: string }[] } | undefined)?.issues;
    return { objectId, errorCode: error.code, message: issues?.length ? `${error.message}：${issues.map((i) => i.message).join('；')}` : error.message };
  }
  throw error;
}

/** A short path for a record the caller can open (it must exist), or for a page of this site. */
export async function shortLink(ctx: NodeContext, body: contracts.ShortLinkBody): Promise<{ url: string; target: string }> {
  let target: string;
  if (body.path !== undefined) target = sitePath(body.path);
  else if (body.schemaCode === undefined || body.objectId === undefined) throw new AppError('ShortLinkTarget');
  else {
    const edb = engineOf(ctx);
    const form: RuntimeForm = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
    if (!(await findRecord(edb, form, body.objectId))) throw new AppError('BizObjectNotFound', { detail: { objectId: body.objectId } });
    target = `${FORM_RUNTIME_PATH}/${encodeURIComponent(form.node.code)}/${body.objectId}?engineCode=${encodeURIComponent(ctx.engineCode)}`;
  }
  return { url: await shortPathFor(ctx.db, ctx.engineCode, ctx.userId, target), target };
}
