import { sql, type RawBuilder, type SqlBool } from 'kysely';
import {
  PATTERN_OPERATORS, dayRange, dynamicDateRange, dynamicValuesFor, isGroup, operatorAppliesTo, type DynamicDateValue, type QueryLeaf, type QueryNode,
  type FilterValue, type PatternOperator,
} from '@tritium/shared/query/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { subtreeIds } from '../org/org.repo.ts';
import { anyDb, type RuntimeForm } from '../business-data/runtime-form.ts';
import { resolveColumn, type QueryColumn } from './query-fields.ts';
import { foldedColumnName } from '../form-design/trigram-indexes.ts';
import { idParam, idsOfType } from '../../db/uuid-ids.ts';

// Filter → one SQL condition on the form's columns (docs/decisions/0013-query-engine.md; architecture.md §2: queries
// run in SQL). Every value travels as a bind parameter; names go through sql.ref. Problems are collected as
// {path, message} and answered as one 777 before any SQL runs.

export interface Issue {
  path: string;
  message: string;
}

export interface CompileContext {
  edb: EngineExecutor;
  form: RuntimeForm;
  userId: string;
  now: Date;
  issues: Issue[];
}

type Cond = RawBuilder<SqlBool>;
type Ref = ReturnType<typeof sql.ref>;
const TRUE: Cond = sql<SqlBool>`true`;
const FALSE: Cond = sql<SqlBool>`false`;

/** The main table's alias in every statement of the engine. */
export const MAIN = 'm';
const CHILD = 'c';

const not = (c: Cond): Cond => sql<SqlBool>`not coalesce(${c}, false)`;
const and = (cs: Cond[]): Cond => (cs.length ? sql<SqlBool>`(${sql.join(cs, sql` and `)})` : TRUE);
const or = (cs: Cond[]): Cond => (cs.length ? sql<SqlBool>`(${sql.join(cs, sql` or `)})` : FALSE);

/** LIKE wildcards and the escape character itself, escaped so they match literally. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
/** ILIKE pattern for "contains": %, _ and the escape character itself match literally. */
export const containsPattern = (text: string): string => `%${escapeLike(text)}%`;

/**
 * "`text` matches `pattern`, case aside". A column with a lowered twin (form-design/trigram-indexes.ts, decision
 * 0103) is read through the twin with LIKE and the pattern lowered by PostgreSQL's own lower(): the same answers as
 * ILIKE, which in a UTF-8 database is lower(text) LIKE lower(pattern) but lowers every row's text as it reads it.
 * Lowering leaves % _ and \ as they are, so the pattern's escapes hold.
 */
export function caseFreeLike(text: RawBuilder<unknown> | Ref, folded: Ref | null, pattern: string): Cond {
  return folded ? sql<SqlBool>`${folded} like lower(${pattern})` : sql<SqlBool>`${text} ilike ${pattern}`;
}

/**
 * The product's pattern operators (h3yun-facts §1.5: 13 `like '?%'`, 14 `like '%?'`, 22/23 their `not like`) on a
 * text expression. Case-insensitive (ILIKE) like Contains here and the product's default collation; the Not forms
 * also hold for a blank value, as NotContains does (docs/decisions/0030).
 */
function patternCondition(text: RawBuilder<unknown> | Ref, operator: PatternOperator, value: string, folded: Ref | null = null): Cond {
  const like = operator === 'StartWith' || operator === 'NotStartWith' ? `${escapeLike(value)}%` : `%${escapeLike(value)}`;
  const cond = caseFreeLike(text, folded, like);
  return operator === 'StartWith' || operator === 'EndWith' ? cond : not(cond);
}
const isPattern = (operator: QueryLeaf['operator']): operator is PatternOperator => (PATTERN_OPERATORS as readonly string[]).includes(operator);

/** A text[] parameter the same on pg and PGlite (their array typing differs; JSON text converts alike). */
/** A list of bind parameters for IN (…); never empty (an empty list is reported as an issue first). */
const params = (values: unknown[]) => (values.length ? sql.join(values) : sql`null`);

const textArray = (values: string[]) => sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

/** The caller's departments (every department they belong to), as a subquery. */
const myDepartments = (ctx: CompileContext) => anyDb(ctx.edb).selectFrom('org_user_departments').select('department_id').where('user_id', '=', ctx.userId);
const myDepartmentsAndBelow = (ctx: CompileContext) => subtreeIds(ctx.edb, myDepartments(ctx) as never);

export function compileFilter(ctx: CompileContext, node: QueryNode | undefined, path: string): Cond {
  if (!node) return TRUE;
  if (isGroup(node)) {
    const parts = node.children.map((child, i) => compileFilter(ctx, child, `${path}.children.${i}`));
    return node.type === 'And' ? and(parts) : or(parts);
  }
  return compileLeaf(ctx, node, path);
}

function compileLeaf(ctx: CompileContext, leaf: QueryLeaf, path: string): Cond {
  const column = resolveColumn(ctx.form, leaf.field);
  if (!column) return fail(ctx, `${path}.field`, `字段 ${leaf.field} 不存在或不能筛选`);
  if (!operatorAppliesTo(leaf.operator, column.dataType)) return fail(ctx, `${path}.operator`, `字段 ${leaf.field} 不支持 ${leaf.operator}`);
  const alias = column.grid ? CHILD : MAIN;
  const col = sql.ref(`${alias}.${column.code}`);
  const folded = !column.grid && ctx.form.folded.has(column.code) ? sql.ref(`${MAIN}.${foldedColumnName(column.code)}`) : null;
  const before = ctx.issues.length;
  const cond = conditionOf(ctx, column, col, folded, leaf, `${path}.value`);
  if (ctx.issues.length > before) return FALSE;
  if (!column.grid) return cond;
  const rows = anyDb(ctx.edb)
    .selectFrom(`${column.grid.table} as ${CHILD}`)
    .select(sql.lit(1).as('one'))
    .where(sql<SqlBool>`${sql.ref(`${CHILD}.ParentObjectId`)} = ${sql.ref(`${MAIN}.ObjectId`)} and ${cond}`);
  return sql<SqlBool>`exists ${rows}`;
}

function fail(ctx: CompileContext, path: string, message: string): Cond {
  ctx.issues.push({ path, message });
  return FALSE;
}

function conditionOf(ctx: CompileContext, column: QueryColumn, col: Ref, folded: Ref | null, leaf: QueryLeaf, path: string): Cond {
  const { operator } = leaf;
  const v = new ValueReader(ctx, path, leaf.value);
  switch (column.dataType) {
    case 'string':
    case 'text':
      return textCondition(col, folded, operator, v);
    case 'decimal':
    case 'int':
      return orderedCondition(col, operator, v, () => v.number(column.dataType === 'int'), () => v.list().map(() => v.number(column.dataType === 'int')));
    case 'datetime':
      return dateCondition(ctx, col, operator, v);
    case 'bool':
      if (operator === 'IsBlank') return sql<SqlBool>`${col} is null`;
      if (operator === 'NotBlank') return sql<SqlBool>`${col} is not null`;
      return operator === 'Equal' ? sql<SqlBool>`${col} = ${v.bool()}` : sql<SqlBool>`${col} is distinct from ${v.bool()}`;
    case 'user':
    case 'unit':
    case 'reference':
      if (operator === 'Dynamic') return sql<SqlBool>`${col} in ${orgValues(ctx, column, v)}`;
      // A department and every department below it (a report drilling into a department rolled up to a level).
      if (operator === 'Contains' && column.dataType === 'unit') return sql<SqlBool>`${col} in ${idsOfType(column.sqlType === 'uuid', subtreeIds(ctx.edb, [v.text()]))}`;
      // A record's key is checked (a wrong one is the caller's mistake); a person's, department's or flow's id in a
      // uuid column that is not a uuid names nobody, as it named nobody when the column was text (decision 0128).
      return idCondition(col, operator, v, column.sqlType === 'uuid', column.code === 'ObjectId');
    case 'strings':
    case 'users':
    case 'units':
    case 'references':
      if (operator === 'Dynamic') return sql<SqlBool>`${col} && array${orgValues(ctx, column, v)}`;
      return arrayCondition(col, operator, v);
    case 'address':
      return addressCondition(col, operator, v);
    case 'location': {
      const address = sql`(${col}->>'address')`;
      if (operator === 'IsBlank') return sql<SqlBool>`${col} is null`;
      if (operator === 'NotBlank') return sql<SqlBool>`${col} is not null`;
      const like = sql<SqlBool>`${address} ilike ${containsPattern(v.text())}`;
      return operator === 'Contains' ? like : not(like);
    }
    default:
      return jsonBlank(col, operator);
  }
}

/** short and long text: Contains is case-free (the twin's trigram index, or ILIKE; docs/decisions/0013, 0103). */
function textCondition(col: Ref, folded: Ref | null, operator: QueryLeaf['operator'], v: ValueReader): Cond {
  const blank = sql<SqlBool>`(${col} is null or ${col} = '')`;
  if (isPattern(operator)) return patternCondition(col, operator, v.text(true), folded);
  switch (operator) {
    case 'Equal': return sql<SqlBool>`${col} = ${v.text()}`;
    case 'NotEqual': return sql<SqlBool>`${col} is distinct from ${v.text()}`;
    case 'Contains': return caseFreeLike(col, folded, containsPattern(v.text(true)));
    case 'NotContains': return not(caseFreeLike(col, folded, containsPattern(v.text(true))));
    // The record's text is part of the value given ("北京" is contained in "北京市海淀区").
    case 'Contained': return sql<SqlBool>`(${col} <> '' and strpos(lower(${v.text(true)}), lower(${col})) > 0)`;
    case 'NotContained': return not(sql<SqlBool>`(${col} <> '' and strpos(lower(${v.text(true)}), lower(${col})) > 0)`);
    case 'In': return sql<SqlBool>`${col} in (${params(v.texts())})`;
    case 'NotIn': return not(sql<SqlBool>`${col} in (${params(v.texts())})`);
    case 'IsBlank': return blank;
    default: return not(blank);
  }
}

function orderedCondition(col: ReturnType<typeof sql.ref>, operator: QueryLeaf['operator'], v: ValueReader, one: () => unknown, many: () => unknown[]): Cond {
  switch (operator) {
    case 'Equal': return sql<SqlBool>`${col} = ${one()}`;
    case 'NotEqual': return sql<SqlBool>`${col} is distinct from ${one()}`;
    case 'Above': return sql<SqlBool>`${col} > ${one()}`;
    case 'NotBelow': return sql<SqlBool>`${col} >= ${one()}`;
    case 'Below': return sql<SqlBool>`${col} < ${one()}`;
    case 'NotAbove': return sql<SqlBool>`${col} <= ${one()}`;
    case 'In': return sql<SqlBool>`${col} in (${params(many())})`;
    case 'NotIn': return not(sql<SqlBool>`${col} in (${params(many())})`);
    case 'IsBlank': return sql<SqlBool>`${col} is null`;
    case 'NotBlank': return sql<SqlBool>`${col} is not null`;
    default: {
      const [from, to] = v.pair(() => one());
      const parts: Cond[] = [];
      if (from !== null) parts.push(sql<SqlBool>`${col} >= ${from}`);
      if (to !== null) parts.push(sql<SqlBool>`${col} <= ${to}`);
      return and(parts);
    }
  }
}

/**
 * Dates: a full timestamp compares as an instant; a date 'yyyy-mm-dd' means that whole day in Asia/Shanghai (Equal
 * = within the day, Above = after it, NotAbove = up to its end); Dynamic is a calendar range computed from the clock.
 */
function dateCondition(ctx: CompileContext, col: ReturnType<typeof sql.ref>, operator: QueryLeaf['operator'], v: ValueReader): Cond {
  const within = (r: { from: string; to: string }) => sql<SqlBool>`(${col} >= ${r.from} and ${col} < ${r.to})`;
  switch (operator) {
    case 'IsBlank': return sql<SqlBool>`${col} is null`;
    case 'NotBlank': return sql<SqlBool>`${col} is not null`;
    case 'Dynamic': {
      const name = v.dynamic(['Today', 'Yesterday', 'Tomorrow', 'ThisWeek', 'LastWeek', 'NextWeek', 'ThisMonth', 'LastMonth', 'NextMonth', 'ThisQuarter', 'LastQuarter', 'ThisYear', 'LastYear', 'Last7Days', 'Last30Days']);
      if (!name) return FALSE;
      const r = dynamicDateRange(name as DynamicDateValue, ctx.now);
      return within({ from: r.from.toISOString(), to: r.to.toISOString() });
    }
    case 'Between': {
      const [from, to] = v.pair(() => v.date());
      const parts: Cond[] = [];
      if (from) parts.push(sql<SqlBool>`${col} >= ${from.from}`);
      if (to) parts.push(to.day ? sql<SqlBool>`${col} < ${to.to}` : sql<SqlBool>`${col} <= ${to.to}`);
      return and(parts);
    }
  }
  const d = v.date();
  if (!d) return FALSE;
  switch (operator) {
    case 'Equal': return d.day ? within(d) : sql<SqlBool>`${col} = ${d.from}`;
    case 'NotEqual': return not(d.day ? within(d) : sql<SqlBool>`${col} = ${d.from}`);
    case 'Above': return d.day ? sql<SqlBool>`${col} >= ${d.to}` : sql<SqlBool>`${col} > ${d.from}`;
    case 'NotBelow': return sql<SqlBool>`${col} >= ${d.from}`;
    case 'Below': return sql<SqlBool>`${col} < ${d.from}`;
    default: return d.day ? sql<SqlBool>`${col} < ${d.to}` : sql<SqlBool>`${col} <= ${d.from}`;
  }
}

/** Single ids (user, department, association; ObjectId and, since decision 0128, the system id columns are uuid). */
function idCondition(col: ReturnType<typeof sql.ref>, operator: QueryLeaf['operator'], v: ValueReader, isUuid: boolean, isKey: boolean): Cond {
  const id = () => (isUuid && isKey ? v.uuid() : idParam(isUuid, v.text()));
  switch (operator) {
    case 'Equal': return sql<SqlBool>`${col} = ${id()}`;
    case 'NotEqual': return sql<SqlBool>`${col} is distinct from ${id()}`;
    case 'In': return sql<SqlBool>`${col} in (${params(v.list().map(() => id()))})`;
    case 'NotIn': return not(sql<SqlBool>`${col} in (${params(v.list().map(() => id()))})`);
    case 'IsBlank': return isUuid ? sql<SqlBool>`${col} is null` : sql<SqlBool>`(${col} is null or ${col} = '')`;
    default: return isUuid ? sql<SqlBool>`${col} is not null` : sql<SqlBool>`(${col} is not null and ${col} <> '')`;
  }
}

/**
 * text[] columns (checkbox list, multi-user, multi-department, multi-association, batch scan): Contains = holds every
 * value given, Contained = holds nothing but values given (and something), In = holds any, Equal = the same set.
 */
function arrayCondition(col: ReturnType<typeof sql.ref>, operator: QueryLeaf['operator'], v: ValueReader): Cond {
  const blank = sql<SqlBool>`coalesce(cardinality(${col}), 0) = 0`;
  if (operator === 'IsBlank') return blank;
  if (operator === 'NotBlank') return not(blank);
  // The product keeps a checkbox list as one `a;b` text: starts / ends with read that text (its items in order).
  if (isPattern(operator)) return patternCondition(sql`array_to_string(${col}, ';')`, operator, v.text(true));
  const a = textArray(v.texts());
  switch (operator) {
    case 'Equal': return sql<SqlBool>`(${col} @> ${a} and ${col} <@ ${a})`;
    case 'NotEqual': return not(sql<SqlBool>`(${col} @> ${a} and ${col} <@ ${a})`);
    case 'Contains': return sql<SqlBool>`${col} @> ${a}`;
    case 'NotContains': return not(sql<SqlBool>`${col} @> ${a}`);
    case 'Contained': return sql<SqlBool>`(cardinality(${col}) > 0 and ${col} <@ ${a})`;
    case 'NotContained': return not(sql<SqlBool>`(cardinality(${col}) > 0 and ${col} <@ ${a})`);
    case 'In': return sql<SqlBool>`${col} && ${a}`;
    default: return not(sql<SqlBool>`${col} && ${a}`);
  }
}

/** A region's adcode as a prefix: a province (110000) covers its cities (1101xx) and towns. */
export const adcodePrefix = (adcode: string): string => adcode.replace(/(00)+$/, '') || adcode;

/** Area (jsonb {adcode, adname, detail}): Contains / In = inside the region(s); a non-code text matches the name. */
function addressCondition(col: ReturnType<typeof sql.ref>, operator: QueryLeaf['operator'], v: ValueReader): Cond {
  const code = sql`(${col}->>'adcode')`;
  const inside = (value: string): Cond =>
    /^\d{6}$/.test(value) ? sql<SqlBool>`${code} like ${`${adcodePrefix(value)}%`}` : sql<SqlBool>`(${col}->>'adname') ilike ${containsPattern(value)}`;
  switch (operator) {
    case 'Equal': return sql<SqlBool>`${code} = ${v.adcode()}`;
    case 'NotEqual': return sql<SqlBool>`${code} is distinct from ${v.adcode()}`;
    case 'Contains': return inside(v.text(true));
    case 'NotContains': return not(inside(v.text(true)));
    case 'In': return or(v.texts().map(inside));
    case 'NotIn': return not(or(v.texts().map(inside)));
    case 'IsBlank': return sql<SqlBool>`coalesce(${code}, '') = ''`;
    default: return sql<SqlBool>`coalesce(${code}, '') <> ''`;
  }
}

/** Files, signatures and other JSON: only blank or not ([] and {} are blank). */
function jsonBlank(col: ReturnType<typeof sql.ref>, operator: QueryLeaf['operator']): Cond {
  const blank = sql<SqlBool>`(${col} is null or ${col} in ('null'::jsonb, '[]'::jsonb, '{}'::jsonb))`;
  return operator === 'IsBlank' ? blank : not(blank);
}

/** Dynamic org values as a subquery of ids: the caller, their departments, or those and the departments below. */
function orgValues(ctx: CompileContext, column: QueryColumn, v: ValueReader) {
  const name = v.dynamic(dynamicValuesFor(column.dataType));
  const uuid = column.sqlType === 'uuid';
  if (name === 'MyDepartment') return idsOfType(uuid, myDepartments(ctx));
  if (name === 'MyDepartmentAndSub') return idsOfType(uuid, myDepartmentsAndBelow(ctx));
  return uuid ? sql`(select ${idParam(true, ctx.userId)}::uuid)` : sql`(select ${ctx.userId}::text)`;
}

/** Reads a leaf's value in the shape its operator and column need; a wrong shape is an issue at `path`. */
class ValueReader {
  constructor(
    private readonly ctx: CompileContext,
    private readonly path: string,
    private readonly value: FilterValue | undefined,
  ) {}

  private problem(message: string) {
    this.ctx.issues.push({ path: this.path, message });
  }

  /** The value as a list (a scalar is a list of one); an empty list is a problem. */
  list(): (string | number | boolean | null)[] {
    const list = Array.isArray(this.value) ? this.value : this.value === undefined ? [] : [this.value];
    if (!list.length) this.problem('须给出至少一个值');
    this.items = list;
    this.at = 0;
    return list;
  }

  private items: (string | number | boolean | null)[] | null = null;
  private at = 0;

  /** The next item when reading a list, else the scalar value. */
  private current(): unknown {
    if (this.items) return this.items[this.at++];
    return this.value;
  }

  text(nonEmpty = false): string {
    const x = this.current();
    if (typeof x === 'number') return String(x);
    if (typeof x !== 'string') return this.wrong('须为文本', '');
    if (nonEmpty && x === '') return this.wrong('须填写值', '');
    return x;
  }

  texts(): string[] {
    const list = this.list();
    return list.map(() => this.text());
  }

  number(integer: boolean): number {
    const x = this.current();
    const n = typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' ? Number(x) : NaN;
    if (!Number.isFinite(n)) return this.wrong('须为数字', 0);
    if (integer && !Number.isInteger(n)) return this.wrong('须为整数', 0);
    return n;
  }

  bool(): boolean {
    const x = this.current();
    if (typeof x === 'boolean') return x;
    if (x === 1 || x === 'true' || x === '1') return true;
    if (x === 0 || x === 'false' || x === '0') return false;
    return this.wrong('须为是或否', false);
  }

  uuid(): string {
    const x = this.text();
    return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(x) ? x : this.wrong('须为数据 ObjectId', '00000000-0000-0000-0000-000000000000');
  }

  adcode(): string {
    const x = this.text();
    return /^\d{6}$/.test(x) ? x : this.wrong('须为6位行政区划代码', '');
  }

  /** A date 'yyyy-mm-dd' (its day in Asia/Shanghai) or an instant; ISO strings out. */
  date(): { from: string; to: string; day: boolean } | null {
    const x = this.current();
    if (typeof x !== 'string') return this.wrong('须为日期或日期时间', null);
    const day = dayRange(x);
    if (day) return { from: day.from.toISOString(), to: day.to.toISOString(), day: true };
    const t = Date.parse(x);
    if (!/^\d{4}-\d{2}-\d{2}[T ]/.test(x) || Number.isNaN(t)) return this.wrong('须为日期或日期时间', null);
    const iso = new Date(t).toISOString();
    return { from: iso, to: iso, day: false };
  }

  /** Between: [from, to], either may be null (open end) but not both. */
  pair<T>(read: () => T): [T | null, T | null] {
    if (!Array.isArray(this.value) || this.value.length !== 2 || (this.value[0] === null && this.value[1] === null)) {
      return this.wrong('须为 [起, 止]，至多一端为空', [null, null]);
    }
    this.items = this.value;
    this.at = 0;
    const from = this.value[0] === null ? (this.at++, null) : read();
    const to = this.value[1] === null ? (this.at++, null) : read();
    return [from, to];
  }

  dynamic(allowed: readonly string[]): string | null {
    const x = this.value;
    if (typeof x === 'string' && allowed.includes(x)) return x;
    return this.wrong(`须为动态值之一：${allowed.join('、')}`, null);
  }

  private wrong<T>(message: string, fallback: T): T {
    this.problem(message);
    return fallback;
  }
}
