import type { contracts, Locale } from '@tritium/shared';
import { SEARCH_KEYWORD_MIN, SEARCH_NODE_LIMIT } from '@tritium/shared/contracts/search/index';
import { engineSchemaName } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { formOfNode, type RuntimeForm } from '../business-data/runtime-form.ts';
import { FORM_NODE_TYPES } from '../form-design/form-access.ts';
import type { NodeRow } from '../function-node/function-node.repo.ts';
import { engineOf, loadAppViews, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { can } from '../permission/form-rights.ts';
import { narrowingCondition } from '../query/query.service.ts';
import type { CompileContext } from '../query/filter-compiler.ts';
import { searchColumnsOf, searchRows, type FormSearch, type SearchRow } from './record-search.sql.ts';
import { matchesIn, snippetOf } from './snippet.ts';

// Full-text search (issue 20; docs/decisions/0040): the records and the function nodes a person may open whose text
// holds a keyword. What may be read is the policy's answer, never decided here: the function-node views give the
// nodes the caller opens, the runtime form gives their rights on each form (view right, field rights), and the query
// engine's narrowingCondition gives the records within their data scopes.

/** Forms searched at most in one call (one UNION ALL branch each); the rest of a huge engine is not searched. */
export const SEARCH_FORM_LIMIT = 100;

export interface SearchOptions {
  locale?: Locale;
}

/** The keyword, or 350001 when it is too short to search (the box says so rather than showing nothing). */
export function keywordOrThrow(raw: string): string {
  const keyword = raw.trim();
  if ([...keyword].length < SEARCH_KEYWORD_MIN) throw new AppError('SearchKeywordTooShort', { detail: { min: SEARCH_KEYWORD_MIN, keyword } });
  return keyword;
}

interface VisibleNode {
  node: NodeRow;
  app: NodeRow;
  isAppAdmin: boolean;
}

/** Every node the caller may open, with its app, in tree order (apps included, disabled nodes left out). */
async function visibleNodes(ctx: NodeContext): Promise<VisibleNode[]> {
  const edb = engineOf(ctx);
  const views = await loadAppViews(edb, await viewerOf(edb, ctx));
  return views.flatMap((view) =>
    [view.app, ...view.flatten()].filter((node) => node.state !== 'Disabled').map((node) => ({ node, app: view.app, isAppAdmin: view.isAdmin })),
  );
}

/** GET /v1/fulltextsearch/nodes: nodes whose name holds the keyword. */
export async function searchNodes(ctx: NodeContext, query: contracts.NodeSearchQuery): Promise<contracts.NodeSearchResult> {
  const keyword = keywordOrThrow(query.keyword);
  const list: contracts.NodeSearchHit[] = [];
  for (const { node, app } of await visibleNodes(ctx)) {
    const highlights = matchesIn(node.display_name, keyword);
    if (!highlights.length) continue;
    list.push({ code: node.code, appCode: app.code, appName: app.display_name, displayName: node.display_name, nodeType: node.node_type, icon: node.icon, iconColor: node.icon_color, highlights });
    if (list.length >= SEARCH_NODE_LIMIT) break;
  }
  return { list };
}

/** The published forms the caller may open and view, with their apps, at most SEARCH_FORM_LIMIT. */
async function viewableForms(ctx: NodeContext): Promise<{ form: RuntimeForm; app: NodeRow }[]> {
  const edb = engineOf(ctx);
  const viewer = await viewerOf(edb, ctx);
  const candidates = (await visibleNodes(ctx)).filter((v) => FORM_NODE_TYPES.includes(v.node.node_type)).slice(0, SEARCH_FORM_LIMIT);
  const out: { form: RuntimeForm; app: NodeRow }[] = [];
  for (const { node, app, isAppAdmin } of candidates) {
    try {
      const form = await formOfNode(edb, node, viewer, isAppAdmin);
      if (can(form.rights, 'view')) out.push({ form, app });
    } catch (error) {
      // A form never published has no records to find.
      if (error instanceof AppError && error.errorName === 'FormNotPublished') continue;
      throw error;
    }
  }
  return out;
}

const iso = (v: SearchRow['created_time']): string | null => (v == null ? null : v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

/** GET /v1/toolkit/fulltext/search: a page of records holding the keyword, grouped by app and form. */
export async function searchRecords(ctx: NodeContext, query: contracts.FulltextSearchQuery, options: SearchOptions = {}): Promise<contracts.FulltextSearchResult> {
  const keyword = keywordOrThrow(query.keyword);
  const edb = engineOf(ctx);
  const forms = await viewableForms(ctx);
  const searches: FormSearch[] = forms.map(({ form }) => {
    const cc: CompileContext = { edb, form, userId: ctx.userId, now: new Date(), issues: [] };
    return { form, columns: searchColumnsOf(form, keyword, options.locale), narrowing: narrowingCondition(cc, {}) };
  });
  const rows = await searchRows(edb, engineSchemaName(ctx.engineCode), searches, keyword, query.pageIndex * query.pageSize, query.pageSize + 1);
  const hasMore = rows.length > query.pageSize;
  const byCode = new Map(forms.map((f, i) => [f.form.node.code, { ...f, columns: searches[i]!.columns }]));
  const groups = new Map<string, contracts.RecordSearchGroup>();
  for (const row of rows.slice(0, query.pageSize)) {
    const found = byCode.get(row.schema_code);
    if (!found) continue;
    let group = groups.get(row.schema_code);
    if (!group) {
      group = { appCode: found.app.code, appName: found.app.display_name, schemaCode: row.schema_code, formName: found.form.node.display_name, nodeType: found.form.node.node_type, hits: [] };
      groups.set(row.schema_code, group);
    }
    const column = found.columns.find((c) => c.code === row.field_code);
    group.hits.push({
      objectId: row.object_id,
      title: row.title ?? '',
      seqNo: row.seq_no,
      fieldCode: row.field_code,
      fieldName: column?.name ?? row.field_code,
      snippet: snippetOf(row.field_text ?? '', keyword),
      createdTime: iso(row.created_time),
    });
  }
  return { list: [...groups.values()], pageIndex: query.pageIndex, pageSize: query.pageSize, hasMore };
}

/** GET /GlobalSearch/SearchByKey: both answers at once (the legacy call). */
export async function searchAll(ctx: NodeContext, keyword: string, options: SearchOptions = {}): Promise<contracts.GlobalSearchResult> {
  const [nodes, records] = await Promise.all([searchNodes(ctx, { keyword }), searchRecords(ctx, { keyword, pageIndex: 0, pageSize: 20 }, options)]);
  return { nodes: nodes.list, records };
}

