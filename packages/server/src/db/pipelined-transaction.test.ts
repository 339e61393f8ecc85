import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { CompiledQuery } from 'kysely';
import { AFTER_COMMIT, PREPARED, THEN_COMMIT, inlined, pipelineTransactions } from './pipelined-transaction.ts';

// test-databases: postgres — the wire protocol of node-postgres; PGlite has no connection to pipeline on.

// A transaction's BEGIN goes with its first statement and its COMMIT with a statement tagged THEN_COMMIT
// (docs/decisions/0104): fewer round trips, the same transactions. Round trips are counted as the server's
// ReadyForQuery answers (one per message the client waits on).

const isPostgres = process.env.TEST_DB_KIND === 'postgres';

describe.runIf(isPostgres)('pipelined transactions', () => {
  let client: pg.Client, other: pg.Client;
  let answers = 0;
  // A table of this run's own (the database is shared with other test runs).
  const table = `pipelined_test_${process.pid}_${Date.now()}`;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    await other.connect();
    pipelineTransactions(client);
    (client as unknown as { connection: { on(e: string, f: () => void): void } }).connection.on('readyForQuery', () => answers++);
    await client.query(`create table ${table} (id int primary key, note text)`);
  });
  afterAll(async () => {
    await client.query(`drop table if exists ${table}`);
    await client.end();
    await other.end();
  });
  const roundTrips = async (work: () => Promise<unknown>) => {
    const before = answers;
    await work();
    return answers - before;
  };
  const rows = async () => (await other.query(`select id, note from ${table} order by id`)).rows;
  const open = () => (client as unknown as { _txStatus: string | null })._txStatus;

  it('sends BEGIN with the first statement: the statements still form one transaction', async () => {
    const trips = await roundTrips(async () => {
      await client.query('begin');
      const r = await client.query(`insert into ${table} values ($1, $2) returning id`, [1, 'one']);
      expect(r.rows).toEqual([{ id: 1 }]);
      expect(await rows()).toEqual([]);
      await client.query(`insert into ${table} values (2, $1)`, ['two']);
      await client.query('rollback');
    });
    expect(trips).toBe(3);
    expect(await rows()).toEqual([]);
    expect(open()).toBe('I');
  });

  it('sends a tagged statement with its COMMIT, and answers the COMMIT that follows without a round trip', async () => {
    const trips = await roundTrips(async () => {
      await client.query('begin');
      const r = await client.query(`insert into ${table} values ($1, $2) returning note${THEN_COMMIT}`, [3, 'three']);
      expect(r.rows).toEqual([{ note: 'three' }]);
      expect(await rows()).toEqual([{ id: 3, note: 'three' }]);
      expect((await client.query('commit')).command).toBe('COMMIT');
    });
    expect(trips).toBe(1);
    expect(open()).toBe('I');
  });

  it('a failed first statement leaves the transaction for the ROLLBACK, the connection usable', async () => {
    await client.query('begin');
    await expect(client.query(`insert into ${table} values ($1, $2)`, [3, 'again'])).rejects.toThrow(/duplicate key/);
    await expect(client.query('select 1')).rejects.toThrow(/current transaction is aborted/);
    await client.query('rollback');
    expect(open()).toBe('I');
    expect((await client.query(`select count(*)::int as n from ${table}`)).rows).toEqual([{ n: 1 }]);
  });

  it('a failed tagged statement commits nothing: its COMMIT is skipped and the ROLLBACK ends the transaction', async () => {
    await client.query('begin');
    await client.query(`insert into ${table} values (4, $1)`, ['four']);
    await expect(client.query(`insert into ${table} values ($1, $2)${THEN_COMMIT}`, [3, 'dup'])).rejects.toThrow(/duplicate key/);
    await client.query('rollback');
    expect(await rows()).toEqual([{ id: 3, note: 'three' }]);
    expect(open()).toBe('I');
  });

  it('refuses a statement after the tagged one rather than run it outside the transaction', async () => {
    await client.query('begin');
    await client.query(`update ${table} set note = $1 where id = 3${THEN_COMMIT}`, ['drei']);
    await expect(client.query(`update ${table} set note = $1 where id = 3`, ['trois'])).rejects.toThrow(/after its transaction was committed/);
    expect(await rows()).toEqual([{ id: 3, note: 'drei' }]);
  });

  it('a transaction that ran nothing costs no round trip', async () => {
    expect(await roundTrips(async () => {
      await client.query('begin');
      await client.query('commit');
      await client.query('begin');
      await client.query('rollback');
    })).toBe(0);
    expect(open()).toBe('I');
  });

  it('prepares a statement marked PREPARED once per connection, alone or sent with its COMMIT', async () => {
    const text = `select note from ${table} where id = $1${PREPARED}`;
    // Prepared the second time a text comes (a one-off shape is not kept).
    expect((await client.query(text, [3])).rows).toEqual([{ note: 'drei' }]);
    expect((await client.query(text, [3])).rows).toEqual([{ note: 'drei' }]);
    expect((await client.query(text, [4])).rows).toEqual([]);
    // Not the first statement: one sent behind its transaction's BEGIN runs unnamed.
    await client.query('begin');
    await client.query('select 1');
    await client.query(`update ${table} set note = $1 where id = $2${PREPARED}${THEN_COMMIT}`, ['three', 3]);
    await client.query('commit');
    await client.query('begin');
    await client.query('select 1');
    await client.query(`update ${table} set note = $1 where id = $2${PREPARED}${THEN_COMMIT}`, ['tres', 3]);
    await client.query('commit');
    expect(await rows()).toEqual([{ id: 3, note: 'tres' }]);
    await client.query('begin');
    await client.query('select 1');
    await client.query(`update ${table} set note = $1 where id = $2${PREPARED}${THEN_COMMIT}`, ['tres', 3]);
    await client.query('commit');
    expect(await rows()).toEqual([{ id: 3, note: 'tres' }]);
    const prepared = (await client.query(`select statement from pg_prepared_statements where statement like '%' || $1 || '%' order by statement`, [table])).rows;
    expect(prepared.map((r) => r.statement)).toEqual([text, `update ${table} set note = $1 where id = $2${PREPARED}`].sort());
  });

  it('sends the statements after AFTER_COMMIT behind the COMMIT only, their values inlined safely', async () => {
    const awkward = `it's a \\ "quote" 审批 $1`;
    const after = (id: number) => AFTER_COMMIT + inlined(CompiledQuery.raw(`insert into ${table} values ($1, $2)`, [id, awkward]));
    // Held while the transaction runs, sent with its COMMIT: one round trip for the write, one for the COMMIT.
    const trips = await roundTrips(async () => {
      await client.query('begin');
      await client.query(`select $1::int as one${after(10)}`, [1]);
      expect(await rows()).toEqual([{ id: 3, note: 'tres' }]);
      await client.query('commit');
    });
    expect(trips).toBe(2);
    expect(await rows()).toEqual([{ id: 3, note: 'tres' }, { id: 10, note: awkward }]);
    // A rolled back transaction sends none; outside a transaction they go right behind the statement.
    await client.query('begin');
    await client.query(`select 1 as one${after(11)}`);
    await client.query('rollback');
    await client.query(`select 1 as one${after(12)}`);
    // Behind a statement sent with its COMMIT, in the same message.
    await client.query('begin');
    await client.query('select 1');
    expect(await roundTrips(() => client.query(`update ${table} set note = 'x' where id = 3${THEN_COMMIT}${after(13)}`))).toBe(1);
    await client.query('commit');
    expect((await rows()).map((r) => r.id)).toEqual([3, 10, 12, 13]);
  });

  it('a first statement without values (it may be several) goes behind its BEGIN by the simple protocol', async () => {
    await client.query('begin');
    await client.query(`insert into ${table} values (20, 'a'); insert into ${table} values (21, 'b')`);
    await client.query('rollback');
    expect((await rows()).map((r) => r.id)).toEqual([3, 10, 12, 13]);
    expect(open()).toBe('I');
  });

  it('drops what a rolled back savepoint kept for the COMMIT', async () => {
    const after = (id: number) => AFTER_COMMIT + inlined(CompiledQuery.raw(`insert into ${table} values ($1, 'kept')`, [id]));
    await client.query('begin');
    await client.query(`select $1::int${after(30)}`, [1]);
    await client.query('savepoint s1');
    await client.query(`select $1::int${after(31)}`, [1]);
    await client.query('rollback to savepoint s1');
    await client.query('savepoint "s2"');
    await client.query(`select $1::int${after(32)}`, [1]);
    await client.query('release savepoint "s2"');
    await client.query('commit');
    expect((await rows()).map((r) => r.id)).toEqual([3, 10, 12, 13, 30, 32]);
  });
});
