import type { z } from 'zod';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { contracts } from '@tritium/shared';
import { HIERARCHY_VIEW_LIMITS } from '@tritium/shared/constants/limits';
import { ViewMode } from '@tritium/shared/constants/views';
import { isSortable } from '@tritium/shared/query/index';
import { engineSchemaName } from '../../db/database.ts';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { presentRecord } from '../business-data/record.presenter.ts';
import { anyDb } from '../business-data/runtime-form.ts';
import { MAIN, type CompileContext } from '../query/filter-compiler.ts';
import { mainColumn } from '../query/query-fields.ts';
import { narrowingCondition, type QueryOptions } from '../query/query.service.ts';
import { viewNarrowing, withCallerPaths } from './view-query.service.ts';
import { isHierarchyParent } from './view-fields.ts';

// Lives beside the view's fields (view settings check it too); still answered here for existing callers.
export { isHierarchyParent };

// The Hierarchy view (view mode 6; docs/decisions/0023): POST /v1/bizdata/view/children answers one level of the
// tree — the roots, or the children of one record — a page at a time, with each row's number of children in the view.
// The view narrows as a list view does (scope, fixed filter, caller's filter, quick search: docs/decisions/0017);
// the level is one more condition of the same statement, on the indexed parent column.

type Body = z.infer<typeof contracts.HierarchyChildrenBody>;

export async function hierarchyChildren(ctx: NodeContext, body: Body, options: QueryOptions = {}): Promise<contracts.HierarchyChildrenResult> {
  return withCallerPaths(async () => {
    const { form, view, config, narrowing } = await viewNarrowing(ctx, body);
    const parentField = view.parentField;
    if (view.mode !== ViewMode.Hierarchy || !parentField || !isHierarchyParent(form, parentField)) {
      throw new AppError('HierarchyViewNotHierarchy', { detail: { viewCode: view.code } });
    }
    const edb = engineOf(ctx);
    const cc: CompileContext = { edb, form, userId: ctx.userId, now: options.now ?? new Date(), issues: [] };
    const narrowed = narrowingCondition(cc, narrowing);
    const sort = (body.sort ?? config.sort ?? view.sort).map((s, i) => {
      const column = mainColumn(form, s.field);
      if (!column || !isSortable(column.dataType)) cc.issues.push({ path: `sort.${i}.field`, message: `不能按字段 ${s.field} 排序（仅短文本、日期、整数、是否、数字）` });
      return { code: s.field, direction: s.direction ?? 'asc' };
    });
    if (cc.issues.length) throw parameterError(cc.issues);

    const table = sql.id(engineSchemaName(ctx.engineCode), form.mainTable);
    const parent = sql.ref(`${MAIN}.${parentField}`);
    const base = (where: RawBuilder<SqlBool>) => anyDb(edb).selectFrom(`${form.mainTable} as ${MAIN}`).where(narrowed).where(where);
    const { maxLevels, maxRecords } = HIERARCHY_VIEW_LIMITS;

    let level = 1;
    let viewTotal: number | undefined;
    let levelCondition: RawBuilder<SqlBool>;
    if (body.parentId) {
      // The parent's level: records from it up to its root (bounded one past the limit, so a cycle ends too).
      const up = await sql<{ depth: number }>`
        with recursive up(id, parent, depth) as (
          select t."ObjectId"::text, t.${sql.id(parentField)}, 1 from ${table} t where t."ObjectId" = ${body.parentId}
          union all
          select t."ObjectId"::text, t.${sql.id(parentField)}, u.depth + 1 from ${table} t join up u on t."ObjectId"::text = u.parent
          where u.depth <= ${maxLevels}
        )
        select coalesce(max(depth), 0)::int as depth from up`.execute(edb);
      const depth = up.rows[0].depth;
      if (depth === 0) throw new AppError('BizObjectNotFound', { detail: { objectId: body.parentId } });
      level = depth + 1;
      if (level > maxLevels) throw new AppError('HierarchyViewTooDeep', { detail: { level, maxLevels } });
      levelCondition = sql<SqlBool>`${parent} = ${body.parentId}`;
    } else {
      const all = await base(sql<SqlBool>`true`).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
      viewTotal = Number(all.n);
      if (viewTotal > maxRecords) throw new AppError('HierarchyViewTooLarge', { detail: { records: viewTotal, maxRecords } });
      // Roots: no parent, or a parent that no longer exists.
      levelCondition = sql<SqlBool>`(${parent} is null or ${parent} = '' or not exists (select 1 from ${table} p where p."ObjectId"::text = ${parent}))`;
    }

    const counted = await base(levelCondition).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    const order = [...sort, { code: 'CreatedTime', direction: 'desc' as const }, { code: 'ObjectId', direction: 'desc' as const }];
    let page = base(levelCondition).selectAll(MAIN);
    for (const o of order) page = page.orderBy(sql.ref(`${MAIN}.${o.code}`), o.direction);
    const offset = body.pageIndex * body.pageSize;
    const rows = await page.limit(body.pageSize).offset(offset).execute();

    // Children in the view of each row of the page: one grouped count on the parent column.
    const ids = rows.map((r) => String(r.ObjectId));
    const counts = new Map<string, number>();
    if (ids.length) {
      const grouped = await base(sql<SqlBool>`${parent} in (${sql.join(ids)})`)
        .select([sql<string>`${parent}`.as('p'), sql<number>`count(*)::int`.as('n')])
        .groupBy(parent)
        .execute();
      for (const g of grouped) counts.set(String(g.p), Number(g.n));
    }
    const list = rows.map((r) => ({ ...presentRecord(form, r), [contracts.CHILD_COUNT_KEY]: counts.get(String(r.ObjectId)) ?? 0 }));
    return { list, total, hasMore: offset + list.length < total, level, parentField, ...(viewTotal === undefined ? {} : { viewTotal }) };
  });
}
