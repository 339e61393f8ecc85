import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { FIXED_CODE } from './helpers.ts';
import { killableServer, until } from './server-process.ts';
import { FunctionNodeType as T } from './node-helpers.ts';
import { openDedicatedConnection } from '../src/db/dedicated-connection.ts';
import { startThrowawayPostgres, throwawayPostgresUnavailable, type ThrowawayPostgres } from './throwaway-postgres.ts';

// test-databases: postgres — restarts a PostgreSQL cluster of its own (docs/testing.md "Runs on both databases").

// Issue 17: restarting PostgreSQL under a working server must not end it. The real server runs as a child process on a
// PostgreSQL cluster of this test's own; 50 clients read and write over loopback HTTP while the database is stopped
// (pg_ctl stop -m fast, then start) and later restarted as a crash would (-m immediate), with a slowed app copy in
// flight. Every answer must be a success or the catalogue's 503 / 100050, never 888 and never a hang; the server must
// answer again once the database is back; every acknowledged write must be in the database; the copy in flight
// ends Timeout and its retry makes one complete copy.

const CLIENTS = 50;
const MAX_REQUESTS_PER_CLIENT = 600;
const unavailable = throwawayPostgresUnavailable();
// The cluster is the test's own, whichever database the project runs on: run it once, on the PostgreSQL project when
// there is one.
const otherProjectRunsIt = process.env.TEST_DB_KIND !== 'postgres' && Boolean(process.env.TEST_DATABASE_URL);

interface Session {
  token: string;
  engineCode: string;
}

describe('the server during a database restart', () => {
  if (unavailable || otherProjectRunsIt) {
    it.skip(unavailable ? `needs a throw-away PostgreSQL cluster: ${unavailable}` : 'runs in the server-pg project', () => undefined);
    return;
  }
  let cluster: ThrowawayPostgres;
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  it('stays up, answers 503 / 100050 while the database is away, recovers, and loses no acknowledged write', async () => {
    const platform = await killableServer('dbrestart', { DATABASE_URL: cluster.url, TRITIUM_COPY_BATCH_SIZE: '2', TRITIUM_COPY_BATCH_DELAY_MS: '150' });
    const server = await platform.start(90_000);
    const { base } = platform;

    const send = async (method: 'GET' | 'POST', url: string, body?: unknown, session?: Session) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(session ? { authorization: `Bearer ${session.token}`, enginecode: session.engineCode } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        // A request still unanswered after this long counts as hung.
        signal: AbortSignal.timeout(20_000),
      });
      return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
    };

    const mobile = `136${String(process.pid % 10000).padStart(4, '0')}7777`;
    expect((await send('POST', '/v1/captcha/verifycode/send', { mobile, scene: 'register' })).body.successful).toBe(true);
    const reg = await send('POST', '/v1/register/engine', { mobile, code: FIXED_CODE, password: 'Passw0rd1', userName: '管理员', engineName: '重启测试公司', scale: '1-20' });
    const session: Session = { token: reg.body.data.accessToken, engineCode: reg.body.data.engineCode };
    const loadApp = (await send('POST', '/v1/functionnode', { code: 'RestartLoad', displayName: '压力应用', nodeType: T.AppPackage }, session)).body.data;
    const source = (await send('POST', '/v1/functionnode', { code: 'RestartSource', displayName: '复制源', nodeType: T.AppPackage }, session)).body.data;
    for (let g = 0; g < 5; g++) {
      const group = (await send('POST', '/v1/functionnode', { appCode: source.code, displayName: `分组${g}`, nodeType: T.GroupModule }, session)).body.data;
      for (let f = 0; f < 6; f++) await send('POST', '/v1/functionnode', { appCode: source.code, parentCode: group.code, displayName: `表单${g}-${f}`, nodeType: T.FormModule }, session);
    }

    // A dedicated LISTEN connection (what a cache listener holds) on the same cluster: it must come back by itself.
    const heard: string[] = [];
    const listener = openDedicatedConnection({
      connectionString: cluster.url,
      name: 'tritium_restart_listener',
      setup: async (c) => {
        await c.query('listen restart_test');
      },
      onNotification: (m) => heard.push(m.payload ?? ''),
      backoff: { initialMs: 50, maxMs: 500 },
    });
    await listener.ready();

    // The clients: reads (who am I, the apps) and writes (a group each), until told to stop or out of requests.
    let finished = false;
    const acknowledged: string[] = [];
    const bad: string[] = [];
    let successes = 0;
    let unavailableAnswers = 0;
    const client = async (c: number) => {
      for (let i = 0; i < MAX_REQUESTS_PER_CLIENT && !finished; i++) {
        const name = `c${c}-${i}`;
        const write = i % 2 === 0;
        try {
          const r = write
            ? await send('POST', '/v1/functionnode', { appCode: loadApp.code, displayName: name, nodeType: T.GroupModule }, session)
            : await send('GET', i % 4 === 1 ? '/v1/user/info' : '/v1/functionnode/app/list?withChildren=false', undefined, session);
          if (r.status === 200 && r.body?.successful) {
            successes++;
            if (write) acknowledged.push(name);
          } else if (r.status === 503 && r.body?.errorCode === 100050 && r.body?.successful === false) {
            unavailableAnswers++;
            // A client would wait before trying again (the answer carries Retry-After); keeps 50 clients from spinning.
            await new Promise((resolve) => setTimeout(resolve, 50));
          } else {
            bad.push(`${write ? 'write' : 'read'} ${name}: HTTP ${r.status} ${JSON.stringify(r.body)?.slice(0, 300)}`);
          }
        } catch (error) {
          bad.push(`${write ? 'write' : 'read'} ${name}: ${(error as Error).name} ${(error as Error).message}`);
        }
      }
    };
    const clients = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    const successesNow = () => successes;

    // 1. The database stops cleanly (sessions end with 57P01) and stays away until the clients have seen it.
    await until('successful answers under load', async () => (successes >= 200 ? true : undefined), 60_000);
    await cluster.stop('fast');
    const seenBefore = unavailableAnswers;
    await until('503 answers while the database is away', async () => (unavailableAnswers >= seenBefore + 100 ? true : undefined), 30_000);
    expect(server.exitCode).toBeNull();
    await cluster.start();
    const afterStart = successesNow();
    await until('a successful answer once the database is back', async () => (successes > afterStart + 50 ? true : undefined), 30_000);

    // 2. A copy in flight when the database restarts as after a crash.
    const { actionId } = (await send('POST', '/v1/functionnode/copy', { code: source.code }, session)).body.data;
    const progressOf = async () => (await send('GET', `/v1/functionnode/copy/progress?actionId=${actionId}`, undefined, session)).body.data;
    await until('the copy running', async () => {
      const p = await progressOf();
      return p?.state === 'Running' && p.progress > 10 ? true : undefined;
    });
    await cluster.restart('immediate');
    const afterRestart = successesNow();
    await until('a successful answer after the immediate restart', async () => (successes > afterRestart + 50 ? true : undefined), 30_000);
    expect(server.exitCode).toBeNull();

    finished = true;
    await clients;
    expect(bad).toEqual([]);
    expect(server.exitCode).toBeNull();

    const interrupted = await until('the copy ends', async () => {
      const p = await progressOf().catch(() => undefined);
      return p && p.state !== 'Running' && p.state !== 'Waiting' ? p : undefined;
    });
    expect(interrupted).toMatchObject({ state: 'Timeout', isComplete: false, attempts: 1 });
    // Queued again; a runner that heard the retry may have claimed it already (docs/decisions/0108).
    expect(['Waiting', 'Running']).toContain((await send('POST', '/v1/functionnode/copy/retry', { actionId }, session)).body.data.state);
    const done = await until('the retried copy', async () => {
      const p = await progressOf();
      if (p.state === 'Failed') throw new Error(p.message);
      return p.isComplete ? p : undefined;
    });
    expect(done).toMatchObject({ state: 'Finished', attempts: 2, node: { displayName: '复制源-副本' } });

    // The listener reconnected after each outage and hears notifications again.
    await until('the listener back', async () => (listener.reconnects() >= 2 && listener.client() ? true : undefined));
    const notifier = new pg.Client({ connectionString: cluster.url });
    await notifier.connect();
    await notifier.query(`notify restart_test, 'after'`);
    await notifier.end();
    await until('a notification after the restarts', async () => (heard.includes('after') ? true : undefined));
    await listener.close();

    // Every acknowledged write is in the database, read directly.
    const direct = new pg.Client({ connectionString: cluster.url });
    await direct.connect();
    try {
      const rows = await direct.query(`select display_name from e_${session.engineCode}.function_nodes where display_name like 'c%-%'`);
      const stored = new Set(rows.rows.map((r) => r.display_name as string));
      expect(acknowledged.length).toBeGreaterThan(100);
      expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
      const copies = await direct.query(`select count(*)::int as n from e_${session.engineCode}.function_nodes where display_name = '复制源-副本'`);
      expect(copies.rows[0].n).toBe(1);
    } finally {
      await direct.end();
    }
  }, 240_000);
});
