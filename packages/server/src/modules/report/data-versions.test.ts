import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { engineSchemaName, type Database } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { openTestDatabase } from '../../../test/helpers.ts';
import { dataVersionsOf, FOLD_AFTER } from './data-versions.ts';

// test-databases: both — the change rows' trigger, folding under MVCC, and (PostgreSQL) two writers that must not wait.

// Data versions (docs/decisions/0044): a table's version grows by one with every committed transaction that wrote it,
// stays put on a roll back, keeps growing across a fold, and writers of one table never wait for each other.

const ENGINE = 'dvtest';
const schema = engineSchemaName(ENGINE);
let database: Database & { url?: string };
let db: Db;

const version = async (table = 'items') => Number((await dataVersionsOf(db, ENGINE, [table])).split(':')[1]);
const changeRows = async () => Number((await sql<{ n: number }>`select count(*)::int as n from platform.data_changes`.execute(db)).rows[0]!.n);

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db as unknown as Db;
  await sql`create schema ${sql.id(schema)}`.execute(db);
  await sql`create table ${sql.id(schema, 'items')} (id int primary key, n int)`.execute(db);
  await sql`create table ${sql.id(schema, 'other')} (id int primary key)`.execute(db);
});
afterAll(async () => database.close());

describe('data versions', () => {
  it('grow by one per committed writing transaction, whatever it writes, and not on a roll back', async () => {
    const v0 = await version();
    await sql`insert into ${sql.id(schema, 'items')} values (1, 1)`.execute(db);
    expect(await version()).toBe(v0 + 1);
    await db.transaction().execute(async (trx) => {
      await sql`insert into ${sql.id(schema, 'items')} values (2, 2)`.execute(trx);
      await sql`update ${sql.id(schema, 'items')} set n = n + 1`.execute(trx);
      await sql`delete from ${sql.id(schema, 'items')} where id = 2`.execute(trx);
    });
    expect(await version()).toBe(v0 + 2);
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into ${sql.id(schema, 'items')} values (3, 3)`.execute(trx);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await version()).toBe(v0 + 2);
    // Another table's writes leave this one's version alone.
    await version('other');
    await sql`insert into ${sql.id(schema, 'other')} values (1)`.execute(db);
    expect(await version()).toBe(v0 + 2);
  });

  it('keep growing when the change rows are folded into the base', async () => {
    const v0 = await version();
    const writes = FOLD_AFTER + 20;
    for (let i = 0; i < writes; i++) await sql`update ${sql.id(schema, 'items')} set n = ${i} where id = 1`.execute(db);
    const before = await changeRows();
    expect(before).toBeGreaterThan(FOLD_AFTER);
    // The read that saw too many rows folded them: the same version, from the base.
    expect(await version()).toBe(v0 + writes);
    expect(await changeRows()).toBeLessThan(before - FOLD_AFTER);
    expect(await version()).toBe(v0 + writes);
    await sql`update ${sql.id(schema, 'items')} set n = 0 where id = 1`.execute(db);
    expect(await version()).toBe(v0 + writes + 1);
  });

  it('let two transactions write the same table at once (PostgreSQL)', async (context) => {
    if (!database.url) return context.skip();
    const v0 = await version();
    const first = new pg.Client({ connectionString: database.url });
    const second = new pg.Client({ connectionString: database.url });
    await first.connect();
    await second.connect();
    try {
      await first.query('begin');
      await first.query(`insert into "${schema}".items values (10, 10)`);
      // The second writer would wait for the first's commit if they shared a row; it must not.
      await second.query('begin');
      await second.query(`set local lock_timeout = '2s'`);
      await second.query(`insert into "${schema}".items values (11, 11)`);
      await second.query('commit');
      expect(await version()).toBe(v0 + 1);
      await first.query('commit');
      expect(await version()).toBe(v0 + 2);
    } finally {
      await first.end();
      await second.end();
    }
  });
});
