import { sql, type Kysely } from 'kysely';
import { FORMULA_TIME_ZONE } from '@tritium/shared/formula/index';
import type { Db } from '../../db/types.ts';
import { engineSchemaName } from '../../db/database.ts';
import type { JobHandler } from '../../jobs/job-registry.ts';
import { enqueueJob } from '../../jobs/job-runner.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { dropPreAggregate, preAggregateFunction as functionName, preAggregateTable } from '../../db/pre-aggregate-names.ts';

// A form's pre-aggregation (issue 22; docs/decisions/0074): one table beside the form's main table with a row per
// group of (day of its date fields × its low-cardinality fields), holding the group's record count and, per number
// field, the count, sum, min and max. Statement triggers with transition tables keep it current in the writing
// transaction itself (insert adds the new rows' groups, delete subtracts the old ones', update both); a min or max a
// delete or update may have taken away marks its row stale, and a widget needing that min or max scans until the job
// rebuilds the table. The table exists only complete: the job builds it in one transaction, the form's table locked
// against writes meanwhile; its comment names the main table's oid, so a table left over from a removed form is never read.

export const PRE_AGGREGATE_JOB = 'report.pre-aggregate';
/** Forms below this many rows (PostgreSQL's estimate) are scanned; a pre-aggregation there saves nothing worth its writes. */
export const PRE_AGGREGATE_FROM_ROWS = 100_000;
/** A pre-aggregation of more groups than this share of the form's rows saves too little: it is kept but not read… */
const OVERSIZED_SHARE = 0.2;
/** …once the form has this many rows (below, any pre-aggregation is small). */
const OVERSIZED_FROM_ROWS = 10_000;
/** Date fields kept per day (besides the created time): each multiplies the groups. */
const MAX_DAY_FIELDS = 2;
const NUMBER_SQL_TYPES = new Set(['numeric', 'integer']);

export interface PreAggregateShape {
  /** Columns grouped by their value (department, status, options). */
  values: string[];
  /** Date columns grouped by their day in the reports' time zone (stored as that day's first instant). */
  days: string[];
  /** Number columns with their SQL types. */
  numbers: { code: string; sqlType: string }[];
}

/** What a form's pre-aggregation keeps, from its published fields (every field: the reader's rights apply at read time). */
export function shapeOf(form: Pick<RuntimeForm, 'fields'>): PreAggregateShape {
  const values = ['OwnerDeptId', 'Status'];
  const days = ['CreatedTime'];
  const numbers: PreAggregateShape['numbers'] = [];
  for (const f of form.fields) {
    const type: string = f.type.key;
    if (f.type.fewValues && (f.sqlType === 'text' || f.sqlType === 'boolean' || f.sqlType.startsWith('varchar'))) values.push(f.code);
    else if (type === 'dateTime' && f.sqlType === 'timestamptz' && days.length <= MAX_DAY_FIELDS) days.push(f.code);
    else if (type === 'number' && NUMBER_SQL_TYPES.has(f.sqlType)) numbers.push({ code: f.code, sqlType: f.sqlType });
  }
  return { values, days, numbers };
}

export const sumColumn = (code: string) => `${code}__s`;
export const countColumn = (code: string) => `${code}__c`;
export const minColumn = (code: string) => `${code}__min`;
export const maxColumn = (code: string) => `${code}__max`;
export const COUNT_COLUMN = '__n';
export const STALE_COLUMN = '__stale';

/** A pre-aggregation the reader may use: its columns, and whether some min or max is stale. */
export interface PreAggregateInfo {
  table: string;
  columns: Set<string>;
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The form's pre-aggregation when it is complete, belongs to this very main table and is not oversized; else null,
 * with the main table's estimated rows (the reader queues a build past PRE_AGGREGATE_FROM_ROWS).
 */
export async function preAggregateOf(db: Db, engineCode: string, mainTable: string): Promise<{ info: PreAggregateInfo | null; exists: boolean; rows: number }> {
  const table = preAggregateTable(mainTable);
  const schema = engineSchemaName(engineCode);
  const { rows } = await sql<{ base: string | null; estimate: number | null; note: string | null; columns: string[] | null }>`
    select b.oid::bigint::text as base, b.reltuples::float8 as estimate, obj_description(a.oid, 'pg_class') as note,
      (select array_agg(attname::text) from pg_attribute where attrelid = a.oid and attnum > 0 and not attisdropped) as columns
    from (select to_regclass(${`${q(schema)}.${q(mainTable)}`}) as base_oid, to_regclass(${table ? `${q(schema)}.${q(table)}` : null}) as agg_oid) r
    left join pg_class b on b.oid = r.base_oid
    left join pg_class a on a.oid = r.agg_oid`.execute(db);
  const r = rows[0];
  const estimate = Math.max(0, Number(r?.estimate ?? 0));
  const ours = !!r?.base && !!r.note && r.note.startsWith(`tritium pre-aggregation of ${r.base}`);
  if (!ours || !table || r!.note !== `tritium pre-aggregation of ${r!.base}`) return { info: null, exists: ours, rows: estimate };
  return { info: { table, columns: new Set(r!.columns ?? []) }, exists: true, rows: estimate };
}

/** Whether some row's min or max may be out of date (a widget needing one then scans; the job rebuilds). */
export async function hasStaleExtremes(db: Db, engineCode: string, table: string): Promise<boolean> {
  const { rows } = await sql<{ stale: boolean }>`select exists (select 1 from ${sql.id(engineSchemaName(engineCode), table)} where ${sql.ref(STALE_COLUMN)}) as stale`.execute(db);
  return !!rows[0]?.stale;
}

/** Queues a build (or rebuild) of the form's pre-aggregation unless one is already waiting or running. */
export async function queuePreAggregate(db: Db, engineCode: string, mainTable: string, shape: PreAggregateShape): Promise<void> {
  const pending = await db
    .selectFrom('platform.jobs')
    .select('id')
    .where('engine_code', '=', engineCode)
    .where('kind', '=', PRE_AGGREGATE_JOB)
    .where('state', 'in', ['Waiting', 'Running'])
    .where(sql<boolean>`payload->>'mainTable' = ${mainTable}`)
    .executeTakeFirst();
  if (!pending) await enqueueJob(db, { engineCode, kind: PRE_AGGREGATE_JOB, payload: { mainTable, shape } });
}

/**
 * The key of a group for rows of `source`: each value column as it is, each date column as the first instant of its
 * day in the reports' time zone (to_char of it in that zone then gives the same year, quarter, month, week and day).
 */
function keyExpressions(shape: PreAggregateShape, source: string): string[] {
  const tz = `'${FORMULA_TIME_ZONE}'`;
  return [
    ...shape.values.map((c) => `${source}.${q(c)}`),
    ...shape.days.map((c) => `(date_trunc('day', ${source}.${q(c)} at time zone ${tz}) at time zone ${tz})`),
  ];
}

/** The trigger function: subtracts the old rows' groups, adds the new rows' groups. */
function triggerFunction(schema: string, mainTable: string, table: string, shape: PreAggregateShape): string {
  const target = `${q(schema)}.${q(table)}`;
  const keys = [...shape.values, ...shape.days].map(q);
  const columns = [...keys, q(COUNT_COLUMN), ...shape.numbers.flatMap((n) => [sumColumn(n.code), countColumn(n.code), minColumn(n.code), maxColumn(n.code)].map(q)), q(STALE_COLUMN)];
  const select = (source: string, sign: '' | '-') => {
    const k = keyExpressions(shape, source);
    const measures = shape.numbers.flatMap((n) => [`${sign}sum(${source}.${q(n.code)})`, `${sign}count(${source}.${q(n.code)})`, `min(${source}.${q(n.code)})`, `max(${source}.${q(n.code)})`]);
    return `select ${[...k, `${sign}count(*)`, ...measures].join(', ')}, false from ${source} group by ${k.map((_, i) => i + 1).join(', ')}`;
  };
  const t = `t`;
  const adds = [
    `${q(COUNT_COLUMN)} = ${t}.${q(COUNT_COLUMN)} + excluded.${q(COUNT_COLUMN)}`,
    ...shape.numbers.flatMap((n) => [
      `${q(sumColumn(n.code))} = coalesce(${t}.${q(sumColumn(n.code))} + excluded.${q(sumColumn(n.code))}, ${t}.${q(sumColumn(n.code))}, excluded.${q(sumColumn(n.code))})`,
      `${q(countColumn(n.code))} = ${t}.${q(countColumn(n.code))} + excluded.${q(countColumn(n.code))}`,
    ]),
  ];
  // Removed rows: a value at or beyond the group's min or max may have been that extreme.
  const staleIf = shape.numbers.map((n) => `coalesce(excluded.${q(minColumn(n.code))} <= ${t}.${q(minColumn(n.code))} or excluded.${q(maxColumn(n.code))} >= ${t}.${q(maxColumn(n.code))}, false)`);
  const subtract = [...adds, `${q(STALE_COLUMN)} = ${t}.${q(STALE_COLUMN)}${staleIf.map((s) => ` or ${s}`).join('')}`];
  const add = [
    ...adds,
    ...shape.numbers.flatMap((n) => [
      `${q(minColumn(n.code))} = least(${t}.${q(minColumn(n.code))}, excluded.${q(minColumn(n.code))})`,
      `${q(maxColumn(n.code))} = greatest(${t}.${q(maxColumn(n.code))}, excluded.${q(maxColumn(n.code))})`,
    ]),
  ];
  const upsert = (source: string, sign: '' | '-', set: string[]) =>
    `insert into ${target} as ${t} (${columns.join(', ')}) ${select(source, sign)} on conflict (${keys.join(', ')}) do update set ${set.join(', ')};`;
  return `create function ${q(schema)}.${q(functionName(mainTable))}() returns trigger language plpgsql as $fn$
begin
  if tg_op = 'TRUNCATE' then
    delete from ${target};
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    ${upsert('agg_old', '-', subtract)}
  end if;
  if tg_op in ('UPDATE', 'INSERT') then
    ${upsert('agg_new', '', add)}
  end if;
  return null;
end
$fn$`;
}

/**
 * Builds (or rebuilds) the pre-aggregation in one transaction: the main table locked against writes (reads go on),
 * the table, its triggers and its rows from one GROUP BY, the comment that makes it readable. Columns the shape names
 * but the table no longer has (a publish since it was queued) are left out.
 */
export async function buildPreAggregate(db: Db, engineCode: string, mainTable: string, asked: PreAggregateShape, progress: (p: number, message: string) => Promise<void> = async () => undefined): Promise<{ groups: number; rows: number; oversized: boolean } | null> {
  const schema = engineSchemaName(engineCode);
  const table = preAggregateTable(mainTable);
  if (!table) return null;
  // Progress is written outside the build's transaction (it holds the form's table; PGlite has one connection).
  await progress(5, 'building');
  const built = await db.transaction().execute(async (trx) => {
    const base = await sql<{ oid: string; attname: string; type: string }>`
      select c.oid::bigint::text as oid, a.attname::text as attname, format_type(a.atttypid, a.atttypmod) as type
      from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = ${schema} and c.relname = ${mainTable}`.execute(trx);
    if (!base.rows.length) return null;
    const types = new Map(base.rows.map((r) => [r.attname, r.type]));
    const shape: PreAggregateShape = {
      values: asked.values.filter((c) => types.has(c)),
      days: asked.days.filter((c) => types.get(c) === 'timestamp with time zone'),
      numbers: asked.numbers.filter((n) => types.get(n.code) === 'numeric' || types.get(n.code) === 'integer').map((n) => ({ code: n.code, sqlType: types.get(n.code)! })),
    };
    const main = sql.id(schema, mainTable);
    await sql`lock table ${main} in share row exclusive mode`.execute(trx);
    await dropPreAggregate(trx as unknown as Db, schema, mainTable);
    const target = `${q(schema)}.${q(table)}`;
    const columnDefs = [
      ...shape.values.map((c) => `${q(c)} ${types.get(c)}`),
      ...shape.days.map((c) => `${q(c)} timestamptz`),
      `${q(COUNT_COLUMN)} bigint not null`,
      ...shape.numbers.flatMap((n) => [`${q(sumColumn(n.code))} numeric`, `${q(countColumn(n.code))} bigint not null`, `${q(minColumn(n.code))} ${n.sqlType}`, `${q(maxColumn(n.code))} ${n.sqlType}`]),
      `${q(STALE_COLUMN)} boolean not null default false`,
    ];
    await sql.raw(`create table ${target} (${columnDefs.join(', ')})`).execute(trx);
    const keys = [...shape.values, ...shape.days].map(q);
    const k = keyExpressions(shape, 'b');
    const measures = shape.numbers.flatMap((n) => [`sum(b.${q(n.code)})`, `count(b.${q(n.code)})`, `min(b.${q(n.code)})`, `max(b.${q(n.code)})`]);
    await sql.raw(`insert into ${target} select ${[...k, 'count(*)', ...measures].join(', ')}, false from ${q(schema)}.${q(mainTable)} b group by ${k.map((_, i) => i + 1).join(', ')}`).execute(trx);
    await sql.raw(`create unique index ${q(`${table}_key`)} on ${target} (${keys.join(', ')}) nulls not distinct`).execute(trx);
    await sql.raw(`create index ${q(`${table}_stale`)} on ${target} (${q(STALE_COLUMN)}) where ${q(STALE_COLUMN)}`).execute(trx);
    await sql.raw(triggerFunction(schema, mainTable, table, shape)).execute(trx);
    const fn = `${q(schema)}.${q(functionName(mainTable))}()`;
    const on = `${q(schema)}.${q(mainTable)}`;
    await sql.raw(`create trigger tritium_agg_ins after insert on ${on} referencing new table as agg_new for each statement execute function ${fn}`).execute(trx);
    await sql.raw(`create trigger tritium_agg_upd after update on ${on} referencing old table as agg_old new table as agg_new for each statement execute function ${fn}`).execute(trx);
    await sql.raw(`create trigger tritium_agg_del after delete on ${on} referencing old table as agg_old for each statement execute function ${fn}`).execute(trx);
    await sql.raw(`create trigger tritium_agg_trunc after truncate on ${on} for each statement execute function ${fn}`).execute(trx);
    const counts = await sql<{ groups: number; rows: number }>`select count(*)::int as groups, coalesce(sum(${sql.ref(COUNT_COLUMN)}), 0)::float8 as rows from ${sql.id(schema, table)}`.execute(trx);
    const { groups, rows } = counts.rows[0]!;
    const oversized = rows >= OVERSIZED_FROM_ROWS && groups > rows * OVERSIZED_SHARE;
    // Readable only when it saves enough (an oversized one stays, kept current, and is rebuilt when asked again).
    const note = oversized ? `tritium pre-aggregation of ${base.rows[0]!.oid} (oversized)` : `tritium pre-aggregation of ${base.rows[0]!.oid}`;
    await sql.raw(`comment on table ${target} is '${note}'`).execute(trx);
    await sql.raw(`analyze ${target}`).execute(trx);
    return { groups, rows, oversized };
  });
  await progress(100, built ? (built.oversized ? 'oversized' : 'ready') : 'no table');
  return built;
}

/** The job that builds a form's pre-aggregation for the data it already has (and rebuilds it when extremes went stale). */
export function preAggregateHandler(): JobHandler {
  return {
    // Idempotent, nobody to decide: a job whose process died is taken up by another (docs/decisions/0129).
    requeueWhenLost: true,
    async run(ctx) {
      const { mainTable, shape } = ctx.payload as { mainTable: string; shape: PreAggregateShape };
      return buildPreAggregate(ctx.db, ctx.engineCode, mainTable, shape, (p, m) => ctx.reportProgress(p, m));
    },
  };
}
