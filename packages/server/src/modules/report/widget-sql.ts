import { sql, type CompiledQuery, type RawBuilder, type SqlBool } from 'kysely';
import type { contracts } from '@tritium/shared';
import { dynamicDateRange, type DynamicDateValue, type QueryNode } from '@tritium/shared/query/index';
import { FORMULA_TIME_ZONE } from '@tritium/shared/formula/index';
import { REPORT_LIMITS, WIDGET_DIMENSION_TYPE, widgetStatusLeaf, type ComparePeriod, type DateGroup, type MeasureAggregate, type Widget } from '@tritium/shared/report/index';
import type { ControlDataType } from '@tritium/shared/controls/index';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { anyDb, type GridField, type RuntimeForm } from '../business-data/runtime-form.ts';
import { MAIN, type CompileContext } from '../query/filter-compiler.ts';
import { resolveColumn, type QueryColumn } from '../query/query-fields.ts';
import { narrowingCondition } from '../query/query.service.ts';
import { viewFields } from '../view/view-fields.ts';
import { COUNT_COLUMN, countColumn, maxColumn, minColumn, sumColumn } from './pre-aggregate.ts';

// One widget → ONE statement (issue 22; docs/decisions/0044): GROUP BY on the form's table (or its sub-table joined
// to the record) under the same WHERE as every list read — the widget's filter, the viewer's run-time filter, the
// records' data status (Effective only, unless the widget asks for more: widgetStatusLeaf), the scope their
// permission groups allow. Totals and subtotals come from GROUPING SETS, top N from a window over the
// groups (a pivot's column totals too), the number card's two periods from FILTER clauses: nothing is computed from rows in Node.

/** The sub-table rows' alias. */
const GRID = 'g';

const DATE_FORMATS: Record<DateGroup, string> = { year: 'YYYY', quarter: 'YYYY-"Q"Q', month: 'YYYY-MM', week: 'IYYY-"W"IW', day: 'YYYY-MM-DD' };
const DISTINCT_TYPES = new Set<ControlDataType>(['string', 'text', 'decimal', 'int', 'datetime', 'bool', 'user', 'unit', 'reference']);
/** An area field (address) is a dimension by its province: the first two digits of its adcode, as `PP0000`. */
const DIMENSION_TYPES = new Set<ControlDataType>([...DISTINCT_TYPES, 'address']);
const NUMBER_TYPES = new Set<ControlDataType>(['decimal', 'int']);
export const PERIODS: Record<ComparePeriod, [DynamicDateValue, DynamicDateValue]> = {
  day: ['Today', 'Yesterday'],
  week: ['ThisWeek', 'LastWeek'],
  month: ['ThisMonth', 'LastMonth'],
  quarter: ['ThisQuarter', 'LastQuarter'],
  year: ['ThisYear', 'LastYear'],
};
const AGGREGATE_LABELS: Record<MeasureAggregate, string> = { count: '计数', sum: '求和', avg: '平均值', max: '最大值', min: '最小值', distinct: '去重计数' };

export interface CompiledWidget {
  statement: { compile(): CompiledQuery; execute(): Promise<Record<string, unknown>[]> };
  columns: contracts.ReportDataResult['columns'];
  /** Tables the statement reads (for the cache's data versions). */
  tables: string[];
  dimensionCount: number;
  measureCount: number;
  hasTotals: boolean;
  hasComparison: boolean;
  comparison: { from: string; to: string } | null;
  limit: number;
}

/** A column a dimension or measure may name: visible to the viewer, on the widget's table or its record. */
function columnOf(form: RuntimeForm, grid: GridField | undefined, field: string): QueryColumn & { ref: RawBuilder<unknown> } {
  const column = resolveColumn(form, field);
  if (!column) throw new AppError('ReportFieldUnavailable', { detail: { field } });
  // A sub-table column belongs to a sub-table widget of that very sub-table (a record's widget counts records).
  if (column.grid && column.grid.code !== grid?.code) throw new AppError('ReportFieldUnavailable', { detail: { field } });
  return { ...column, ref: sql.ref(column.grid ? `${GRID}.${column.code}` : `${MAIN}.${column.code}`) };
}

const notUsable = (field: string, usage: string, usageEn: string) => new AppError('ReportFieldNotAggregatable', { detail: { field, usage, usageEn } });

/**
 * The province code of an area value (`440305` → `440000`); null when the value holds no code. The control stores only
 * 6-digit codes (controls/area-select.ts), so the first two digits are the province: no pattern test per row (a regex
 * made the grouping several times slower, docs/performance.md "Session 13 — the map widget").
 */
const provinceOf = (ref: RawBuilder<unknown>) => sql`nullif(left(${ref}->>'adcode', 2), '') || '0000'`;

const and = (nodes: (QueryNode | undefined)[]): QueryNode | undefined => {
  const present = nodes.filter((n): n is QueryNode => !!n);
  return present.length > 1 ? { type: 'And', children: present } : present[0];
};

/**
 * Each department of the engine with its ancestor at `level` (1: right under the company), the department itself when
 * it is at or above that level: one recursive walk of the org tree, joined to the records by their department.
 */
function departmentAncestors(cc: CompileContext, level: number) {
  return anyDb(cc.edb)
    .withRecursive('t(id, anc, depth)', (qc) =>
      qc
        .selectFrom('org_units as c')
        .innerJoin('org_units as p', 'p.id', 'c.parent_id')
        .where('p.unit_type', '=', 'Company')
        .where('c.unit_type', '=', 'OrganizationUnit')
        .select([sql.ref('c.id').as('id'), sql.ref('c.id').as('anc'), sql<number>`1`.as('depth')])
        .unionAll(
          qc
            .selectFrom('org_units as c')
            .innerJoin('t', 't.id', 'c.parent_id')
            .where('c.unit_type', '=', 'OrganizationUnit')
            .select([sql.ref('c.id').as('id'), sql`case when t.depth < ${sql.lit(level)} then c.id else t.anc end`.as('anc'), sql<number>`t.depth + 1`.as('depth')]),
        ),
    )
    .selectFrom('t')
    .select(['t.id', 't.anc']);
}

/** The widget's statement for the viewer in `cc`, with what presenting its rows needs. */
export function compileWidget(cc: CompileContext, widget: Widget, runtimeFilter: QueryNode | undefined, preAggregate?: { table: string }): CompiledWidget {
  const { form } = cc;
  const grid = widget.source?.gridCode ? form.grids.find((g) => g.code === widget.source!.gridCode) : undefined;
  if (widget.source?.gridCode && (!grid || form.rights.fields.get(grid.code) === 'hidden')) throw new AppError('ReportFieldUnavailable', { detail: { field: widget.source.gridCode } });
  const columns: CompiledWidget['columns'] = [];
  const levels: { alias: string; level: number; ref: RawBuilder<unknown> }[] = [];
  // Columns are titled as the list view titles the fields (sub-table columns by their own code).
  const titles = new Map(viewFields(form).map((f) => [f.code, f.title]));
  const title = (code: string) => titles.get(code) ?? code;
  const needed = WIDGET_DIMENSION_TYPE[widget.type];
  if (needed && !widget.dimensions.length) cc.issues.push({ path: 'widget.dimensions', message: '地图须以一个地址字段为维度' });
  const dims = widget.dimensions.map((d, i) => {
    const column = columnOf(form, grid, d.field);
    if (!DIMENSION_TYPES.has(column.dataType)) throw notUsable(d.field, '维度', 'a dimension');
    if (needed && i === 0 && column.dataType !== needed) throw notUsable(d.field, '地图的维度（须为地址字段）', "a map's dimension (an area field is needed)");
    const dateGroup = column.dataType === 'datetime' ? (d.dateGroup ?? 'day') : undefined;
    columns.push({ key: `d${i}`, label: d.label || title(d.field), kind: 'dimension', dataType: column.dataType, ...(dateGroup ? { dateGroup } : {}) });
    if (d.departmentLevel) {
      if (column.dataType !== 'unit') throw notUsable(d.field, '按部门层级汇总的维度', 'a dimension rolled up by department level');
      // The org tree's ids are text; a uuid department column (OwnerDeptId, decision 0128) meets them as text.
      const ref = column.sqlType === 'uuid' ? sql`${column.ref}::text` : column.ref;
      levels.push({ alias: `lv${i}`, level: d.departmentLevel, ref });
      return sql`coalesce(${sql.ref(`lv${i}.anc`)}, ${ref})`;
    }
    if (column.dataType === 'address') return provinceOf(column.ref);
    return dateGroup ? sql`to_char(${column.ref} at time zone ${sql.lit(FORMULA_TIME_ZONE)}, ${sql.lit(DATE_FORMATS[dateGroup])})` : column.ref;
  });
  const measures = widget.measures.map((m, i) => {
    columns.push({ key: `m${i}`, label: m.label || (m.field ? `${title(m.field)}${AGGREGATE_LABELS[m.aggregate]}` : '记录数'), kind: 'measure', dataType: 'decimal' });
    if (!m.field) return { aggregate: m.aggregate, ref: undefined, code: undefined };
    const column = columnOf(form, grid, m.field);
    if (m.aggregate === 'distinct' || m.aggregate === 'count' ? !DISTINCT_TYPES.has(column.dataType) : !NUMBER_TYPES.has(column.dataType)) {
      throw notUsable(m.field, `“${AGGREGATE_LABELS[m.aggregate]}”的指标`, `a measure of ${m.aggregate}`);
    }
    return { aggregate: m.aggregate, ref: column.ref, code: column.code };
  });
  const aggregate = (m: (typeof measures)[number], only?: RawBuilder<SqlBool>): RawBuilder<unknown> => {
    const filter = only ? sql` filter (where ${only})` : sql``;
    if (preAggregate) return preAggregated(m, filter);
    if (!m.ref) return sql`count(*)${filter}`;
    switch (m.aggregate) {
      case 'count': return sql`count(${m.ref})${filter}`;
      case 'distinct': return sql`count(distinct ${m.ref})${filter}`;
      default: return sql`${sql.raw(m.aggregate)}(${m.ref})${filter}`;
    }
  };

  // Read from the form's pre-aggregation (pre-aggregate-read.ts decided it answers this widget exactly): each
  // measure from the groups' counts, sums and extremes; groups whose records were all removed are left out.
  function preAggregated(m: (typeof measures)[number], filter: RawBuilder<unknown>): RawBuilder<unknown> {
    const col = (name: string) => sql.ref(`${MAIN}.${name}`);
    if (!m.code) return sql`coalesce(sum(${col(COUNT_COLUMN)})${filter}, 0)`;
    switch (m.aggregate) {
      case 'count': return sql`coalesce(sum(${col(countColumn(m.code))})${filter}, 0)`;
      case 'distinct': return sql`count(distinct ${m.ref})${filter}`;
      case 'sum': return sql`case when sum(${col(countColumn(m.code))})${filter} > 0 then sum(${col(sumColumn(m.code))})${filter} end`;
      case 'avg': return sql`sum(${col(sumColumn(m.code))})${filter} / nullif(sum(${col(countColumn(m.code))})${filter}, 0)`;
      case 'min': return sql`min(${col(minColumn(m.code))})${filter}`;
      default: return sql`max(${col(maxColumn(m.code))})${filter}`;
    }
  }

  const asked = narrowingCondition(cc, { filter: and([widget.filter, runtimeFilter, widgetStatusLeaf(widget, runtimeFilter)]) });
  const where = preAggregate ? sql<SqlBool>`${asked} and ${sql.ref(`${MAIN}.${COUNT_COLUMN}`)} > 0` : asked;
  if (cc.issues.length) throw parameterError(cc.issues);

  let from = grid
    ? anyDb(cc.edb).selectFrom(`${grid.table} as ${GRID}`).innerJoin(`${form.mainTable} as ${MAIN}`, `${MAIN}.ObjectId`, `${GRID}.ParentObjectId`)
    : anyDb(cc.edb).selectFrom(`${preAggregate?.table ?? form.mainTable} as ${MAIN}`);
  for (const l of levels) from = from.leftJoin(departmentAncestors(cc, l.level).as(l.alias), (j) => j.onRef(`${l.alias}.id`, '=', l.ref as never));
  from = from.where(where);

  // The number card's comparison: each measure in the current and in the previous period of a date field.
  let comparison: CompiledWidget['comparison'] = null;
  const selections: RawBuilder<unknown>[] = [];
  dims.forEach((d, i) => selections.push(sql`${d} as ${sql.ref(`d${i}`)}`));
  measures.forEach((m, i) => selections.push(sql`${aggregate(m)} as ${sql.ref(`m${i}`)}`));
  if (widget.compare) {
    const date = columnOf(form, grid, widget.compare.dateField);
    if (date.dataType !== 'datetime') throw notUsable(widget.compare.dateField, '对比日期', 'the comparison date');
    const [thisName, lastName] = PERIODS[widget.compare.period];
    const current = dynamicDateRange(thisName, cc.now);
    const previous = dynamicDateRange(lastName, cc.now);
    const within = (r: { from: Date; to: Date }) => sql<SqlBool>`${date.ref} >= ${r.from.toISOString()} and ${date.ref} < ${r.to.toISOString()}`;
    measures.forEach((m, i) => {
      selections.push(sql`${aggregate(m, within(current))} as ${sql.ref(`c${i}`)}`);
      selections.push(sql`${aggregate(m, within(previous))} as ${sql.ref(`p${i}`)}`);
    });
    comparison = { from: current.from.toISOString(), to: current.to.toISOString() };
  }

  const hasTotals = widget.totals && dims.length > 0;
  const limit = Math.min(widget.topN ?? REPORT_LIMITS.rows, REPORT_LIMITS.rows);
  const sortOf = () => {
    const s = widget.sort;
    if (s && s.by === 'measure' && s.index < measures.length) return sql`${aggregate(measures[s.index]!)} ${sql.raw(s.direction)} nulls last`;
    const index = s && s.by === 'dimension' && s.index < dims.length ? s.index : 0;
    return sql`${dims[index]} ${sql.raw(s?.by === 'dimension' ? s.direction : 'asc')} nulls last`;
  };
  let statement;
  if (!dims.length) {
    statement = from.select(selections.map((s) => s as never));
  } else {
    const grouping = hasTotals ? sql`grouping(${sql.join(dims)})` : sql`0`;
    const groupBy = hasTotals
      ? sql`grouping sets ((${sql.join(dims)})${dims.length > 1 ? sql`, (${dims[0]})` : sql``}${dims.length === 2 ? sql`, (${dims[1]})` : sql``}, ())`
      : sql.join(dims);
    const inner = from
      .select([...selections, sql`${grouping} as __g`, sql`row_number() over (partition by ${grouping} order by ${sortOf()}, ${sql.join(dims)})`.as('__rn')] as never[])
      .groupBy(groupBy as never);
    // Detail groups past the limit are cut (one more is read to tell that some were); subtotals and totals stay.
    statement = anyDb(cc.edb)
      .selectFrom(inner.as('t'))
      .selectAll('t')
      .where(sql<SqlBool>`t.__g <> 0 or t.__rn <= ${limit + 1}`)
      .orderBy('t.__g')
      .orderBy('t.__rn');
  }
  const tables = [form.mainTable, ...(grid ? [grid.table] : [])];
  return { statement: statement as never, columns, tables, dimensionCount: dims.length, measureCount: measures.length, hasTotals, hasComparison: !!comparison, comparison, limit };
}
