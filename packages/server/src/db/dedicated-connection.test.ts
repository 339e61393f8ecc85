import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDedicatedConnection, type DedicatedConnection } from './dedicated-connection.ts';

// test-databases: both — LISTEN and reconnects on a real connection (docs/testing.md "Runs on both databases").

// A dedicated connection (LISTEN, session advisory lock) whose backend the server terminates (57P01, what a restart or
// an administrator does) must come back by itself with its setup run again, without ending the process. PGlite has
// no separate connections, so this runs in the PostgreSQL project only.

const isPostgres = process.env.TEST_DB_KIND === 'postgres';

/** Waits for a condition by polling (no fixed sleeps). */
async function until<V>(what: string, probe: () => Promise<V | undefined> | V | undefined, timeoutMs = 20_000): Promise<V> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(isPostgres)('dedicated connection', () => {
  let admin: pg.Client;
  const opened: DedicatedConnection[] = [];
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    for (const c of opened) await c.close();
    await admin.end();
  });

  const terminate = async (name: string) => {
    const r = await admin.query('select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = $1', [name]);
    expect(r.rows.length).toBeGreaterThan(0);
  };

  it('listens again after its backend is terminated, and says it reconnected', async () => {
    const name = `tritium_dc_${process.pid}_${Date.now().toString(36)}`;
    const channel = `ch_${name}`;
    const received: string[] = [];
    let setups = 0;
    let reconnected = 0;
    const connection = openDedicatedConnection({
      connectionString: process.env.TEST_DATABASE_URL!,
      name,
      setup: async (client) => {
        setups += 1;
        await client.query(`listen ${channel}`);
      },
      onNotification: (m) => received.push(m.payload ?? ''),
      onReconnect: () => (reconnected += 1),
      backoff: { initialMs: 20, maxMs: 200 },
    });
    opened.push(connection);
    await connection.ready();
    await admin.query(`select pg_notify($1, 'before')`, [channel]);
    await until('the first notification', () => received.includes('before'));

    await terminate(name);
    await until('the reconnect', () => connection.reconnects() === 1 && connection.client() !== undefined);
    expect(setups).toBe(2);
    expect(reconnected).toBe(1);
    await admin.query(`select pg_notify($1, 'after')`, [channel]);
    await until('the notification after the reconnect', () => received.includes('after'));
  });

  it('takes its session advisory lock again on the new connection', async () => {
    const name = `tritium_dl_${process.pid}_${Date.now().toString(36)}`;
    const key = 170_000 + (process.pid % 1000);
    const connection = openDedicatedConnection({
      connectionString: process.env.TEST_DATABASE_URL!,
      name,
      setup: async (client) => {
        await client.query('select pg_advisory_lock($1)', [key]);
      },
      backoff: { initialMs: 20, maxMs: 200 },
    });
    opened.push(connection);
    await connection.ready();
    const holder = async () =>
      (
        await admin.query(
          `select a.pid from pg_locks l join pg_stat_activity a on a.pid = l.pid where l.locktype = 'advisory' and l.objid = $1 and l.granted and a.application_name = $2`,
          [key, name],
        )
      ).rows[0]?.pid as number | undefined;
    const first = await until('the lock', holder);
    await terminate(name);
    const second = await until('the lock on a new connection', async () => {
      const pid = await holder();
      return pid && pid !== first ? pid : undefined;
    });
    expect(second).not.toBe(first);
  });

  it('retries a setup that fails until it succeeds', async () => {
    let tries = 0;
    const connection = openDedicatedConnection({
      connectionString: process.env.TEST_DATABASE_URL!,
      name: `tritium_ds_${process.pid}`,
      setup: async () => {
        tries += 1;
        if (tries < 3) throw new Error('not yet');
      },
      backoff: { initialMs: 10, maxMs: 50 },
    });
    opened.push(connection);
    await connection.ready();
    expect(tries).toBe(3);
    expect(connection.reconnects()).toBe(0);
  });
});
