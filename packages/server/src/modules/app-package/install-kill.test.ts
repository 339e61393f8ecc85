import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../db/database.ts';
import { engineWithForm, killableServer, stopProcess, until } from '../../../test/server-process.ts';

// test-databases: postgres — the lease and sweep after kill -9 are database-neutral (as copy-kill); install-crash covers
// a lost lease on both databases in one process.

// An install interrupted by kill -9 (issue 46; docs/decisions/0130): the real server runs as a child process, the
// install slowed on purpose (a pause after every step), the job lease 1.5 s. Killed mid-way, restarted: the job ends
// Timeout, no half-installed app is in the list; the retry removes the dead attempt's rows and installs it once.

const isPostgres = process.env.TEST_DB_KIND === 'postgres';

describe('an install interrupted by a server kill', () => {
  it('ends Timeout with nothing visible, and the retry installs the app exactly once', async () => {
    const platform = await killableServer('install-kill', { TRITIUM_APP_INSTALL_STEP_DELAY_MS: '400' });
    const { base, dataDir, databaseUrl } = platform;
    let server = await platform.start(90_000);
    const { post, session, formCode } = await engineWithForm(base, {
      mobile: `137${String(process.pid % 10000).padStart(4, '0')}6666`, engineName: '安装测试公司', appCode: 'KillInstall', appName: '安装应用', formName: '登记表',
      controls: [{ type: 'textBox', code: 'Title', options: { displayName: '标题' } }, { type: 'number', code: 'Amount', options: { displayName: '金额' } }],
    });
    for (let i = 0; i < 30; i++) await post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Submit', values: { Title: `第${i}条`, Amount: i } });
    const { packageId } = await post('/v1/app-package/export', { appCode: 'KillInstall', sampleData: true });
    const { actionId } = await post('/v1/app-package/install', { packageId, sampleData: true });
    const get = async (url: string) => (await (await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${session.token}`, enginecode: session.engineCode } })).json()) as any;
    const progressOf = async () => (await get(`/v1/app-package/install/progress?actionId=${actionId}`)).data;
    const appNames = async () => (await get('/v1/functionnode/app/list?withChildren=false')).data.list.map((x: { displayName: string }) => x.displayName);

    // Kill -9 once the install has made part of the app.
    await until('install progress', async () => {
      const p = await progressOf();
      return p.state === 'Running' && p.progress >= 10 ? p : undefined;
    });
    await stopProcess(server);

    server = await platform.start(90_000);
    const timedOut = await until('Timeout', async () => {
      const p = await progressOf();
      return p.state === 'Timeout' ? p : undefined;
    });
    expect(timedOut.isComplete).toBe(false);
    expect(await appNames()).toEqual(['安装应用']);

    expect(['Waiting', 'Running']).toContain((await post('/v1/app-package/install/retry', { actionId })).state);
    const done = await until('the retried install', async () => {
      const p = await progressOf();
      if (p.state === 'Failed') throw new Error(p.message);
      return p.isComplete ? p : undefined;
    }, 60_000);
    expect(done.state).toBe('Finished');
    expect(await appNames()).toEqual(['安装应用', '安装应用']);

    // The rows themselves: two apps of two nodes, none hidden; 30 sample records marked once.
    await stopProcess(server, 'SIGTERM');
    const database = await openDatabase(isPostgres ? { databaseUrl } : { pgliteDataDir: path.join(dataDir, 'pglite') });
    try {
      const schema = `e_${session.engineCode}`;
      const nodes = await sql<{ total: number; hidden: number }>`select count(*)::int as total, count(copy_job_id)::int as hidden from ${sql.table(`${schema}.function_nodes`)}`.execute(database.db);
      expect(nodes.rows[0]).toEqual({ total: 4, hidden: 0 });
      const marks = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`${schema}.app_sample_records`)} where app_code = ${done.appCode}`.execute(database.db);
      expect(marks.rows[0]!.n).toBe(30);
    } finally {
      await database.close();
    }
  }, 120_000);
});
