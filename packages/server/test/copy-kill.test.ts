import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { FIXED_CODE } from './helpers.ts';
import { killableServer, until } from './server-process.ts';
import { FunctionNodeType as T } from './node-helpers.ts';

// test-databases: postgres — the job lease and sweep after kill -9 are database-neutral; import-rollback-kill covers PGlite's durability (docs/testing.md "Runs on both databases").

// A copy interrupted by kill -9 (issue 4): the real server runs as a child process on a temp data folder (PGlite)
// or a throw-away PostgreSQL database. The copy is slowed on purpose (batches of 2 nodes, 150 ms apart); the lease is
// 1.5 s so the restarted server sweeps the dead job to Timeout quickly. The retry must leave exactly one copy.

const isPostgres = process.env.TEST_DB_KIND === 'postgres';

describe('copy interrupted by a server kill', () => {
  it('ends Timeout, leaves no visible half copy, and the retry makes exactly one complete copy', async () => {
    const platform = await killableServer('kill', { TRITIUM_COPY_BATCH_SIZE: '2', TRITIUM_COPY_BATCH_DELAY_MS: '150' });
    const { base, dataDir, databaseUrl } = platform;
    const up = () => platform.start(30_000);
    let server = await up();

    const mobile = `137${String(process.pid % 10000).padStart(4, '0')}9999`;
    const post = async (url: string, body: unknown, session?: { token: string; engineCode: string }) => {
      const res = await fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(session ? { authorization: `Bearer ${session.token}`, enginecode: session.engineCode } : {}) },
        body: JSON.stringify(body),
      });
      return (await res.json()) as any;
    };
    const get = async (url: string, session: { token: string; engineCode: string }) =>
      (await (await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${session.token}`, enginecode: session.engineCode } })).json()) as any;

    expect((await post('/v1/captcha/verifycode/send', { mobile, scene: 'register' })).successful).toBe(true);
    const reg = await post('/v1/register/engine', { mobile, code: FIXED_CODE, password: 'Passw0rd1', userName: '管理员', engineName: '复制测试公司', scale: '1-20' });
    const session = { token: reg.data.accessToken as string, engineCode: reg.data.engineCode as string };
    const app = (await post('/v1/functionnode', { code: 'KillSource', displayName: '源应用', nodeType: T.AppPackage }, session)).data;
    for (let g = 0; g < 7; g++) {
      const group = (await post('/v1/functionnode', { appCode: app.code, displayName: `分组${g}`, nodeType: T.GroupModule }, session)).data;
      for (let f = 0; f < 6; f++) await post('/v1/functionnode', { appCode: app.code, parentCode: group.code, displayName: `表单${g}-${f}`, nodeType: T.FormModule }, session);
    }
    const progressOf = async () => (await get(`/v1/functionnode/copy/progress?actionId=${actionId}`, session)).data;
    const { actionId } = (await post('/v1/functionnode/copy', { code: app.code }, session)).data;

    // Kill -9 once part of the copy is written.
    const seen = await until('copy progress', async () => {
      const p = await progressOf();
      return p.state === 'Running' && p.progress > 10 ? p : undefined;
    });
    expect(seen.isComplete).toBe(false);
    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));

    server = await up();
    const timedOut = await until('Timeout', async () => {
      const p = await progressOf();
      return p.state === 'Timeout' ? p : undefined;
    });
    expect(timedOut).toMatchObject({ isComplete: false, node: null, attempts: 1 });
    const appsAfterKill = (await get('/v1/functionnode/app/list?withChildren=false', session)).data.list;
    expect(appsAfterKill.map((x: { code: string }) => x.code)).toEqual(['KillSource']);

    // Queued again; a runner that heard the retry may have claimed it already (docs/decisions/0108).
    expect(['Waiting', 'Running']).toContain((await post('/v1/functionnode/copy/retry', { actionId }, session)).data.state);
    const done = await until('the retried copy', async () => {
      const p = await progressOf();
      if (p.state === 'Failed') throw new Error(p.message);
      return p.isComplete ? p : undefined;
    });
    expect(done).toMatchObject({ state: 'Finished', attempts: 2, node: { displayName: '源应用-副本' } });
    const apps = (await get('/v1/functionnode/app/list?withChildren=false', session)).data.list;
    expect(apps.map((x: { displayName: string }) => x.displayName)).toEqual(['源应用', '源应用-副本']);
    const features = (await get(`/v1/functionNode/app/feature/list?appCode=${done.node.code}`, session)).data.list;
    expect(features).toHaveLength(49);

    // Stop the server and look at the rows themselves: 100 nodes, none left marked as being copied.
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    const database = await openDatabase(isPostgres ? { databaseUrl } : { pgliteDataDir: path.join(dataDir, 'pglite') });
    try {
      const schema = `e_${session.engineCode}`;
      const counts = await sql<{ total: number; marked: number; apps: number }>`
        select count(*)::int as total, count(copy_job_id)::int as marked, count(*) filter (where node_type = 190)::int as apps
        from ${sql.table(`${schema}.function_nodes`)}`.execute(database.db);
      expect(counts.rows[0]).toEqual({ total: 100, marked: 0, apps: 2 });
    } finally {
      await database.close();
    }
  }, 60_000);
});
