import { sql, type Kysely } from 'kysely';

// PostgreSQL's autovacuum for the embedded database (docs/decisions/0110). PGlite runs PostgreSQL in single-user mode,
// where no autovacuum launcher starts: without this, no table of an embedded platform is ever analysed (the planner
// guesses every row count), no dead row version is ever reclaimed (updated and deleted rows' index entries pile up)
// and no transaction id is ever frozen. A scheduler sweep asks, once a minute, which tables autovacuum would treat now
// — by autovacuum's own rules and settings, from the statistics PostgreSQL keeps in single-user mode as well — and
// runs VACUUM or ANALYZE on them, one statement at a time, outside any transaction. Where a launcher runs (PostgreSQL)
// or autovacuum is turned off, the sweep does nothing.

/** A table autovacuum would treat now, and what it would do. */
export interface TableDue {
  schema: string;
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/**
 * The tables past autovacuum's thresholds (PostgreSQL 15, autovacuum.c `relation_needs_vacanalyze`): dead rows above
 * threshold + scale factor × rows, rows inserted since the last vacuum above the insert threshold, a transaction-id
 * age above `autovacuum_freeze_max_age` (vacuum); rows changed since the last analyse above its threshold (analyse). A
 * table never analysed counts as empty, as autovacuum counts it; one that holds rows is analysed all the same, since
 * PGlite's statistics do not outlive a restart (the changes before it are not counted again). The most changed first.
 */
export async function tablesDue(db: Kysely<any>, schemas?: readonly string[]): Promise<TableDue[]> {
  // This connection's own counts not yet reported reach the statistics first (they are reported at most once a second).
  await sql`select pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<{ schema: string; table: string; vacuum: boolean; analyze: boolean }>`
    with setting as (
      select current_setting('autovacuum_vacuum_threshold')::float8 as vacuum_base,
             current_setting('autovacuum_vacuum_scale_factor')::float8 as vacuum_scale,
             current_setting('autovacuum_vacuum_insert_threshold')::float8 as insert_base,
             current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as insert_scale,
             current_setting('autovacuum_analyze_threshold')::float8 as analyze_base,
             current_setting('autovacuum_analyze_scale_factor')::float8 as analyze_scale,
             current_setting('autovacuum_freeze_max_age')::float8 as freeze_age
    ), stat as (
      select st.schemaname as schema_name, st.relname as table_name, greatest(c.reltuples, 0)::float8 as live,
             st.n_dead_tup as dead, st.n_ins_since_vacuum as inserted, st.n_mod_since_analyze as modified,
             age(c.relfrozenxid)::float8 as xid_age,
             -- never analysed yet holding rows: the counts behind the rules start again at 0 when PGlite restarts
             (c.reltuples < 0 and pg_relation_size(c.oid) > 0) as unanalysed
      from pg_stat_all_tables st join pg_class c on c.oid = st.relid
      where c.relkind in ('r', 'm') and st.schemaname not in ('pg_toast', 'information_schema')
        and ${schemas ? sql`st.schemaname = any(${[...schemas]})` : sql`true`}
    ), judged as (
      select schema_name, table_name, dead, modified,
             (dead > vacuum_base + vacuum_scale * live
               or (insert_base >= 0 and inserted > insert_base + insert_scale * live)
               or xid_age > freeze_age) as needs_vacuum,
             -- ANALYZE refuses pg_statistic (autovacuum skips it likewise): analysing writes it
             (modified > analyze_base + analyze_scale * live or unanalysed) and (schema_name, table_name) <> ('pg_catalog', 'pg_statistic') as needs_analyze
      from stat, setting
    )
    select schema_name as "schema", table_name as "table", needs_vacuum as "vacuum", needs_analyze as "analyze"
    from judged
    where needs_vacuum or needs_analyze
    order by dead + modified desc, schema_name, table_name
  `.execute(db);
  return rows;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Treats the tables due (of `schemas`, else all), one statement each, until `budgetMs` has passed: each statement
 * holds the embedded database's one connection, and the rest wait for the next round. Answers the tables treated.
 */
export async function maintainTables(db: Kysely<any>, options: { budgetMs?: number; schemas?: readonly string[] } = {}): Promise<TableDue[]> {
  const budgetMs = options.budgetMs ?? 1_000;
  const started = Date.now();
  const done: TableDue[] = [];
  for (const due of await tablesDue(db, options.schemas)) {
    if (done.length && Date.now() - started >= budgetMs) break;
    const target = `${quoted(due.schema)}.${quoted(due.table)}`;
    const verb = due.vacuum ? (due.analyze ? 'vacuum (analyze)' : 'vacuum') : 'analyze';
    try {
      await sql.raw(`${verb} ${target}`).execute(db);
    } catch (error) {
      // Dropped meanwhile (a form deleted, an engine's schema removed): nothing left to treat.
      if ((error as { code?: string }).code === '42P01' || (error as { code?: string }).code === '3F000') continue;
      throw error;
    }
    done.push(due);
  }
  return done;
}

/** Whether the tables need this process: autovacuum is wanted ('on') but no launcher runs to do it (single-user mode). */
export async function needsOwnMaintenance(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ own: boolean }>`
    select current_setting('autovacuum') = 'on'
       and not exists (select 1 from pg_stat_activity where backend_type = 'autovacuum launcher') as own
  `.execute(db);
  return rows[0]?.own === true;
}

/**
 * The scheduler's sweep: every `intervalMs` of real time (autovacuum_naptime's default; the first round one interval
 * after the start, not at it), the tables due, where the database has no autovacuum of its own. Its clock is the
 * machine's, not the scheduler's business time (tests move that by days).
 */
export function embeddedMaintenanceSweep(options: { intervalMs?: number; budgetMs?: number; now?: () => number } = {}): { run(db: Kysely<any>): Promise<number> } {
  const intervalMs = options.intervalMs ?? 60_000;
  const now = options.now ?? Date.now;
  let last = now();
  let own: boolean | undefined;
  return {
    async run(db) {
      if (own === false || now() - last < intervalMs) return 0;
      last = now();
      own ??= await needsOwnMaintenance(db);
      return own ? (await maintainTables(db, { budgetMs: options.budgetMs })).length : 0;
    },
  };
}
