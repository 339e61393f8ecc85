import type { contracts } from '@tritium/shared';
import { STATIC_WIDGET_TYPES, type Widget } from '@tritium/shared/report/index';
import type { QueryNode } from '@tritium/shared/query/index';
import { areaName } from '@tritium/shared/reference/areas';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { anyDb, getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { CompileContext } from '../query/filter-compiler.ts';
import { compileWidget, type CompiledWidget } from './widget-sql.ts';
import { dataVersionsOf, tablesRead } from './data-versions.ts';
import type { ReportCache } from './report-cache.ts';
import { hasStaleExtremes, PRE_AGGREGATE_FROM_ROWS, preAggregateOf, queuePreAggregate, shapeOf } from './pre-aggregate.ts';
import { answerable } from './pre-aggregate-read.ts';

// The numbers of one widget for one viewer (issue 22; docs/decisions/0044): compiled to one statement within the
// viewer's scope and field rights, answered from the cache while the tables it reads are unchanged.

export interface ReportDeps {
  cache: ReportCache;
  now?: Date;
  /** Forms of at least this many rows get a pre-aggregation built by the job runner (docs/decisions/0074). */
  preAggregateFromRows?: number;
}

const EMPTY: contracts.ReportDataResult = { columns: [], rows: [], subtotals: [], columnTotals: [], totals: null, labels: {}, truncated: false, comparison: null, cached: false };

const num = (v: unknown): number | null => (v == null ? null : Number(v));

export async function widgetData(ctx: NodeContext, widget: Widget, runtimeFilter: QueryNode | undefined, deps: ReportDeps): Promise<contracts.ReportDataResult> {
  if (STATIC_WIDGET_TYPES.includes(widget.type)) return EMPTY;
  if (!widget.source) throw new AppError('ReportSourceMissing', { detail: { title: widget.title || widget.id } });
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, widget.source.schemaCode);
  const cc: CompileContext = { edb, form, userId: ctx.userId, now: deps.now ?? new Date(), issues: [] };
  // The cache key is the scan's statement: the pre-aggregation gives the same numbers, so a hit needs no more reads.
  const scan = compileWidget(cc, widget, runtimeFilter);
  const query = scan.statement.compile();
  const versions = await dataVersionsOf(ctx.db, ctx.engineCode, tablesRead(query.sql, scan.tables));
  const key = JSON.stringify([ctx.engineCode, form.version, versions, query.sql, query.parameters, scan.columns]);
  const hit = deps.cache.get(key);
  if (hit) return { ...hit, cached: true };

  const compiled = await compileFastest(ctx, cc, widget, runtimeFilter, deps, scan);

  const rows = await compiled.statement.execute();
  const d = compiled.dimensionCount;
  const m = compiled.measureCount;
  const present = (r: Record<string, unknown>) => [...Array.from({ length: d }, (_, i) => r[`d${i}`] ?? null), ...Array.from({ length: m }, (_, i) => num(r[`m${i}`]))];
  const detail = d ? rows.filter((r) => Number(r.__g) === 0) : rows;
  const truncated = detail.length > compiled.limit;
  const result: Omit<contracts.ReportDataResult, 'cached'> = {
    ...(compiled.preAggregated ? { preAggregated: true } : {}),
    columns: compiled.columns,
    rows: detail.slice(0, compiled.limit).map(present),
    // GROUPING() has a bit per dimension, set when it is summed over: the first dimension's groups leave only it unset;
    // with two dimensions, the second's (a pivot's columns) leave only the second unset.
    subtotals: compiled.hasTotals && d > 1 ? rows.filter((r) => Number(r.__g) === (1 << (d - 1)) - 1).map(present) : [],
    columnTotals: compiled.hasTotals && d === 2 ? rows.filter((r) => Number(r.__g) === 2).map(present) : [],
    totals: compiled.hasTotals ? (rows.filter((r) => Number(r.__g) === (1 << d) - 1).map(present)[0] ?? null) : null,
    labels: await labelsOf(edb, compiled.columns, detail),
    truncated,
    comparison: compiled.comparison
      ? {
          current: Array.from({ length: m }, (_, i) => num(rows[0]?.[`c${i}`])),
          previous: Array.from({ length: m }, (_, i) => num(rows[0]?.[`p${i}`])),
          ...compiled.comparison,
        }
      : null,
  };
  deps.cache.set(key, result);
  return { ...result, cached: false };
}

/**
 * The widget's statement on the form's pre-aggregation when it answers the widget exactly (pre-aggregate-read.ts),
 * else on the form's table (`scan`, compiled first either way: its checks — hidden fields, fields that cannot be
 * summed — are the widget's). A large form without a pre-aggregation gets one queued; one whose extremes went
 * stale is rebuilt (meanwhile a widget needing a min or max scans).
 */
async function compileFastest(ctx: NodeContext, cc: CompileContext, widget: Widget, runtimeFilter: QueryNode | undefined, deps: ReportDeps, scan: CompiledWidget): Promise<CompiledWidget & { preAggregated?: boolean }> {
  if (widget.source?.gridCode) return scan;
  const { form } = cc;
  const found = await preAggregateOf(ctx.db, ctx.engineCode, form.mainTable);
  const shape = shapeOf(form);
  if (!found.info) {
    if (!found.exists && found.rows >= (deps.preAggregateFromRows ?? PRE_AGGREGATE_FROM_ROWS)) await queuePreAggregate(ctx.db, ctx.engineCode, form.mainTable, shape);
    return scan;
  }
  const fit = answerable(form, shape, found.info, widget, runtimeFilter, cc.now);
  if (!fit) return scan;
  if (fit.needsExtremes && (await hasStaleExtremes(ctx.db, ctx.engineCode, found.info.table))) {
    await queuePreAggregate(ctx.db, ctx.engineCode, form.mainTable, shape);
    return scan;
  }
  return { ...compileWidget(cc, widget, runtimeFilter, { table: found.info.table }), preAggregated: true };
}

/**
 * Names of the users, departments and provinces among the dimension values (one read for the people and departments;
 * a province is named as the area control names it, e.g. 440000 → 广东省).
 */
async function labelsOf(edb: EngineExecutor, columns: contracts.ReportDataResult['columns'], rows: Record<string, unknown>[]): Promise<Record<string, string>> {
  const ids = new Set<string>();
  const areas: Record<string, string> = {};
  columns.forEach((c, i) => {
    if (c.kind !== 'dimension') return;
    for (const r of rows) {
      const value = r[`d${i}`];
      if (typeof value !== 'string') continue;
      if (c.dataType === 'address') areas[value] = areaName(value) || value;
      else if (c.dataType === 'user' || c.dataType === 'unit') ids.add(value);
    }
  });
  if (!ids.size) return areas;
  const list = [...ids];
  const found = await anyDb(edb)
    .selectFrom('org_units')
    .select(['id', 'name'])
    .where('id', 'in', list)
    .union(anyDb(edb).selectFrom('org_users').select(['id', 'name']).where('id', 'in', list))
    .execute();
  return { ...areas, ...Object.fromEntries(found.map((r) => [r.id as string, r.name as string])) };
}
