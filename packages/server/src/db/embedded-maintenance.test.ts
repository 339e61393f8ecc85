import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, openTestDatabase, type TestApp } from '../../test/helpers.ts';
import { embeddedMaintenanceSweep, maintainTables, needsOwnMaintenance, tablesDue } from './embedded-maintenance.ts';

// test-databases: both — PGlite treats its own tables; PostgreSQL has (or was told not to have) autovacuum and is left alone.

// PGlite runs PostgreSQL without an autovacuum launcher (docs/decisions/0110): the scheduler's maintenance sweep
// vacuums and analyses the tables autovacuum would, by its rules and settings.

const embedded = (process.env.TEST_DB_KIND ?? 'pglite') === 'pglite';
type Database = Awaited<ReturnType<typeof openTestDatabase>>;

async function tableStats(database: Database, table: string) {
  await sql`select pg_stat_force_next_flush()`.execute(database.db);
  const { rows } = await sql<{ reltuples: number; n_dead_tup: number; n_mod_since_analyze: number; last_vacuum: Date | null; last_analyze: Date | null }>`
    select c.reltuples::float8 as reltuples, s.n_dead_tup::int as n_dead_tup, s.n_mod_since_analyze::int as n_mod_since_analyze, s.last_vacuum, s.last_analyze
    from pg_stat_all_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = 'maintenance_test' and s.relname = ${table}
  `.execute(database.db);
  return rows[0]!;
}

describe.runIf(embedded)('the embedded database kept as autovacuum would keep it', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    await sql`create schema maintenance_test`.execute(database.db);
    // "busy": 5,000 rows, 2,000 of them updated (dead versions past 50 + 20 %); "quiet": 5,000 rows, analysed, then 10 changed.
    await sql`create table maintenance_test.busy (id int primary key, v int, note text)`.execute(database.db);
    await sql`create table maintenance_test.quiet (id int primary key, v int)`.execute(database.db);
    await sql`insert into maintenance_test.busy select g, g, md5(g::text) from generate_series(1, 5000) g`.execute(database.db);
    await sql`update maintenance_test.busy set v = v + 1 where id <= 2000`.execute(database.db);
    await sql`insert into maintenance_test.quiet select g, g from generate_series(1, 5000) g`.execute(database.db);
    // The inserts' counts reach the statistics before the vacuum (reported later, they would count as after it).
    await sql`select pg_stat_force_next_flush()`.execute(database.db);
    await sql`vacuum analyze maintenance_test.quiet`.execute(database.db);
    await sql`update maintenance_test.quiet set v = 0 where id <= 10`.execute(database.db);
  });
  afterAll(() => database.close());

  it('has no autovacuum of its own', async () => {
    expect(await needsOwnMaintenance(database.db)).toBe(true);
  });

  it('lists what autovacuum would treat, treats it outside any transaction, and keeps every row', async () => {
    const before = await tableStats(database, 'busy');
    expect(before).toMatchObject({ reltuples: -1, n_dead_tup: 2000, n_mod_since_analyze: 7000, last_vacuum: null, last_analyze: null });
    expect(await tablesDue(database.db, ['maintenance_test'])).toEqual([{ schema: 'maintenance_test', table: 'busy', vacuum: true, analyze: true }]);
    // Unscoped, the list holds the platform's tables as well.
    expect(await tablesDue(database.db)).toContainEqual({ schema: 'maintenance_test', table: 'busy', vacuum: true, analyze: true });

    const treated = await maintainTables(database.db, { schemas: ['maintenance_test'] });
    expect(treated).toContainEqual({ schema: 'maintenance_test', table: 'busy', vacuum: true, analyze: true });
    expect(treated.some((t) => t.table === 'quiet')).toBe(false);
    const after = await tableStats(database, 'busy');
    expect(after).toMatchObject({ reltuples: 5000, n_dead_tup: 0, n_mod_since_analyze: 0 });
    expect(after.last_vacuum).not.toBeNull();
    expect(after.last_analyze).not.toBeNull();
    const { rows } = await sql<{ n: number; moved: number }>`select count(*)::int as n, count(*) filter (where v = id + 1)::int as moved from maintenance_test.busy`.execute(database.db);
    expect(rows[0]).toEqual({ n: 5000, moved: 2000 });
    expect(await tablesDue(database.db, ['maintenance_test'])).toEqual([]);
  });

  it('inserts alone call for a vacuum and an analyse once past their thresholds; a round past its budget leaves the rest to the next', async () => {
    await sql`insert into maintenance_test.quiet select g, g from generate_series(5001, 7500) g`.execute(database.db);
    await sql`update maintenance_test.busy set v = 0 where id <= 1100`.execute(database.db);
    // busy: 1,100 dead versions past 50 + 20 % of 5,000 (vacuum), 1,100 changes past 50 + 10 % (analyse);
    // quiet: 2,500 inserts past 1,000 + 20 % of 5,000 (vacuum), 2,510 changes (analyse). The most changed first.
    expect(await tablesDue(database.db, ['maintenance_test'])).toEqual([
      { schema: 'maintenance_test', table: 'quiet', vacuum: true, analyze: true },
      { schema: 'maintenance_test', table: 'busy', vacuum: true, analyze: true },
    ]);
    expect((await maintainTables(database.db, { budgetMs: 0, schemas: ['maintenance_test'] })).map((t) => t.table)).toEqual(['quiet']);
    expect((await maintainTables(database.db, { budgetMs: 0, schemas: ['maintenance_test'] })).map((t) => t.table)).toEqual(['busy']);
    expect(await tablesDue(database.db, ['maintenance_test'])).toEqual([]);
    expect((await tableStats(database, 'quiet')).reltuples).toBe(7500);
  });

  it('a table never analysed is analysed though its counts are gone (PGlite keeps no statistics across a restart)', async () => {
    await sql`create table maintenance_test.restarted (id int primary key)`.execute(database.db);
    await sql`create table maintenance_test.empty (id int primary key)`.execute(database.db);
    await sql`insert into maintenance_test.restarted select g from generate_series(1, 40) g`.execute(database.db);
    // 40 inserts are under every threshold, and after a reset of the counts (as after a restart) nothing counts them:
    // the table is listed because it holds rows and was never analysed. The empty one is not.
    await sql`select pg_stat_reset()`.execute(database.db);
    expect(await tablesDue(database.db, ['maintenance_test'])).toEqual([{ schema: 'maintenance_test', table: 'restarted', vacuum: false, analyze: true }]);
    await maintainTables(database.db, { schemas: ['maintenance_test'] });
    expect((await tableStats(database, 'restarted')).reltuples).toBe(40);
    await sql`select pg_stat_reset()`.execute(database.db);
    expect(await tablesDue(database.db, ['maintenance_test'])).toEqual([]);
  });

  it('never analyses pg_statistic, which every analyse writes (as autovacuum never does): rounds come to rest', async () => {
    // A table of 200 columns: its first analyse writes 200 rows of pg_statistic, past pg_statistic's own threshold.
    const columns = Array.from({ length: 200 }, (_, i) => `c${i} int`).join(', ');
    await sql.raw(`create table maintenance_test.wide (${columns})`).execute(database.db);
    await sql.raw(`insert into maintenance_test.wide select ${Array.from({ length: 200 }, () => 'g').join(', ')} from generate_series(1, 10) g`).execute(database.db);
    const rounds: number[] = [];
    for (let i = 0; i < 4; i++) rounds.push((await maintainTables(database.db, { budgetMs: 60_000 })).length);
    expect((await tablesDue(database.db)).filter((t) => t.table === 'pg_statistic' && t.analyze)).toEqual([]);
    expect(rounds.at(-1)).toBe(0);
  });

  it('the sweep waits its interval of real time, then treats what is due', async () => {
    await sql`update maintenance_test.busy set v = 1 where id <= 3000`.execute(database.db);
    let now = 1_000_000;
    const sweep = embeddedMaintenanceSweep({ intervalMs: 60_000, budgetMs: 60_000, now: () => now });
    expect(await sweep.run(database.db)).toBe(0);
    now += 59_999;
    expect(await sweep.run(database.db)).toBe(0);
    expect((await tableStats(database, 'busy')).n_dead_tup).toBe(3000);
    now += 1;
    expect(await sweep.run(database.db)).toBeGreaterThanOrEqual(1);
    expect((await tableStats(database, 'busy')).n_dead_tup).toBe(0);
    // The next round waits a whole interval again.
    await sql`update maintenance_test.busy set v = 2 where id <= 3000`.execute(database.db);
    now += 30_000;
    expect(await sweep.run(database.db)).toBe(0);
  });
});

describe('the scheduler runs the maintenance sweep', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { maintenanceIntervalMs: 1 } });
    await sql`create schema maintenance_test`.execute(t.database.db);
    await sql`create table maintenance_test.ticked (id int primary key, v int)`.execute(t.database.db);
    await sql`insert into maintenance_test.ticked select g, g from generate_series(1, 3000) g`.execute(t.database.db);
  });
  afterAll(() => t.close());

  it(embedded ? 'on PGlite: a tick analyses the table' : 'on PostgreSQL: autovacuum is the database’s own, a tick treats nothing', async () => {
    const handled = await t.app.extras.scheduler.tick();
    expect(Object.keys(handled)).toContain('database.maintenance');
    const stats = await tableStats(t.database, 'ticked');
    if (embedded) {
      expect(handled['database.maintenance']).toBeGreaterThanOrEqual(1);
      expect(stats.reltuples).toBe(3000);
      expect(stats.last_analyze).not.toBeNull();
    } else {
      expect(await needsOwnMaintenance(t.database.db)).toBe(false);
      expect(handled['database.maintenance']).toBe(0);
      expect(stats.last_vacuum).toBeNull();
      expect(stats.last_analyze).toBeNull();
    }
  });
});
