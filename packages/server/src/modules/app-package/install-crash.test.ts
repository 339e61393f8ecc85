import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { buildSourceApp, downloadPackage, drainJobs, uploadPackage } from './app-package.fixtures.ts';

// test-databases: both — the lease, the sweep, the final publish transaction and the removal of a dead attempt's rows.

// An install is made slow on purpose (each step waits), so that it can be canceled or lose its lease while it runs:
// the half-made app is never in any list; cancel removes it; after a lost lease the retry removes what the dead
// attempt left and finishes once.

let t: TestApp;
let adminA: Person, adminB: Person;
let b: OrgClient;
let bytes: Buffer;

beforeAll(async () => {
  process.env.TRITIUM_APP_INSTALL_STEP_DELAY_MS = '400';
  try {
    t = await createTestApp();
  } finally {
    delete process.env.TRITIUM_APP_INSTALL_STEP_DELAY_MS;
  }
  adminA = await registerPerson(t.app, { engineName: '甲公司' });
  adminB = await registerPerson(t.app, { engineName: '乙公司' });
  b = nodeClient(t.app, adminB);
  const source = await buildSourceApp(t, adminA, { records: 3 });
  const exported = await source.a.post('/v1/app-package/export', { appCode: source.appCode, sampleData: true });
  bytes = await downloadPackage(t.app, adminA, exported.packageId);
}, 120_000);
afterAll(() => t.close());

const edb = () => engineDb(t.database.db, adminB.engineCode);
const appNames = async () => (await b.get('/v1/functionnode/app/list')).list.map((x: { displayName: string }) => x.displayName);
const hiddenRows = async (actionId: string) => Number((await edb().selectFrom('function_nodes').select((eb) => eb.fn.countAll<number>().as('n')).where('copy_job_id', '=', actionId).executeTakeFirstOrThrow()).n);
const nodeCount = async () => Number((await edb().selectFrom('function_nodes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const progress = (actionId: string) => b.get('/v1/app-package/install/progress', { actionId });
const formTables = async () => Number((await sql<{ n: number }>`select count(*)::int as n from pg_tables where schemaname = ${`e_${adminB.engineCode}`} and tablename like 'i\\_%'`.execute(t.database.db)).rows[0]!.n);

async function startInstall(): Promise<string> {
  const packageId = (await uploadPackage(t.app, adminB, bytes)).body.data.packageId;
  return (await b.post('/v1/app-package/install', { packageId, sampleData: true })).actionId;
}

/** Runs the job in the background until `ready` holds of its progress (the job keeps running: `running` ends with it). */
async function runUntil(actionId: string, ready: (p: { progress: number; state: string }) => boolean): Promise<{ running: Promise<boolean> }> {
  const running = t.app.extras.jobs.runOnce();
  for (let i = 0; i < 600; i++) {
    const p = await progress(actionId);
    if (ready(p)) return { running };
    if (p.state !== 'Running' && p.state !== 'Waiting') throw new Error(`install ended ${p.state}: ${p.message}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the install never got there');
}

describe('an install that stops half-way', () => {
  it('canceled while waiting never runs; canceled while running removes what it made', async () => {
    const nodes = await nodeCount();
    const tables = await formTables();
    const waiting = await startInstall();
    expect((await b.post('/v1/app-package/install/cancel', { actionId: waiting })).state).toBe('Canceled');
    expect(await t.app.extras.jobs.runOnce()).toBe(false);

    const actionId = await startInstall();
    const { running } = await runUntil(actionId, (p) => p.state === 'Running' && p.progress >= 20);
    // Half-made: forms published (tables made), the app in no list.
    expect(await hiddenRows(actionId)).toBe(1);
    expect(await appNames()).not.toContain('订单管理');
    expect(await formTables()).toBeGreaterThan(tables);
    expect((await b.post('/v1/app-package/install/cancel', { actionId })).state).toBe('Canceled');
    await running;
    expect(await progress(actionId)).toMatchObject({ state: 'Canceled', isComplete: false });
    expect([await nodeCount(), await formTables(), await hiddenRows(actionId)]).toEqual([nodes, tables, 0]);
    expect((await b.raw('POST', '/v1/app-package/install/cancel', { actionId })).body).toMatchObject({ errorCode: 500012 });
  });

  it('loses its lease (its worker taken for dead): Timeout, nothing visible; the retry cleans up and finishes once', async () => {
    const nodes = await nodeCount();
    const actionId = await startInstall();
    const { running } = await runUntil(actionId, (p) => p.state === 'Running' && p.progress >= 45);
    // The worker is taken for dead: its lease runs out and the sweep ends the job Timeout.
    await t.database.db.updateTable('platform.jobs').set({ lease_until: sql`now() - interval '1 second'` }).where('id', '=', actionId).execute();
    expect(await t.app.extras.jobs.sweep()).toBeGreaterThanOrEqual(1);
    await running;
    expect(await progress(actionId)).toMatchObject({ state: 'Timeout', isComplete: false });
    // What the dead attempt made is still there, hidden: the app is in no list.
    expect(await hiddenRows(actionId)).toBe(1);
    expect(await nodeCount()).toBeGreaterThan(nodes + 1);
    expect(await appNames()).not.toContain('订单管理');

    expect(['Waiting', 'Running']).toContain((await b.post('/v1/app-package/install/retry', { actionId })).state);
    await drainJobs(t);
    const done = await progress(actionId);
    expect(done).toMatchObject({ state: 'Finished', isComplete: true });
    expect((await appNames()).filter((n: string) => n === '订单管理')).toHaveLength(1);
    // Exactly one app's rows: 1 app + 1 group + 2 forms + 1 dashboard; none left hidden.
    expect(await nodeCount()).toBe(nodes + 5);
    expect(await hiddenRows(actionId)).toBe(0);
    const marks = await edb().selectFrom('app_sample_records').select('schema_code').where('app_code', '=', done.appCode).execute();
    expect(marks).toHaveLength(6);
    const job = await t.database.db.selectFrom('platform.jobs').select('attempts').where('id', '=', actionId).executeTakeFirstOrThrow();
    expect(job.attempts).toBe(2);
  });
});
