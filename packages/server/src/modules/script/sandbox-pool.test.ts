import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, createApp, grant, nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { compileScript } from './compile.ts';
import { SandboxPool, type PoolHost } from './sandbox-pool.ts';
import { limitsOf } from './sandbox-vm.ts';
import { runInSandbox, sandboxPoolStats, type ScriptHost } from './sandbox.ts';

// The sandbox's worker threads (docs/decisions/0118): a hostile script costs a worker, not the server's event loop —
// another user's request answers while it runs; a memory bomb ends its worker, not the process; two scripts run at
// once on two workers; too many waiting runs are refused as busy; a silent worker is ended at its wall-clock bound;
// the pool closes with the app.

const info = { engine: { code: 'E1', name: '测试' }, user: { id: 'u1', name: '张三', departmentId: null }, appCode: 'App', schemaCode: 'F1', requestId: null };
const quietHost: ScriptHost = { immediate: () => true, call: async () => ({ ok: true }) };

async function poolRun(pool: SandboxPool, source: string, host: PoolHost, cpuMs = 500) {
  const { js } = await compileScript(source, 'js');
  return pool.run({ js, entry: 'onSubmit', input: {}, info, host, limits: limitsOf({ cpuMs }) });
}

/** A host whose API calls all wait until `parties` calls have arrived (or `release()`). */
function barrier(parties: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const host: PoolHost = {
    immediate: () => undefined,
    call: async () => {
      if (++arrived >= parties) open();
      await opened;
      return { ok: true };
    },
  };
  return { host, release: () => open(), arrived: () => arrived };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('the sandbox pool', () => {
  it('runs two scripts at once on two workers', async () => {
    const pool = new SandboxPool({ size: 2, maxQueued: 10, maxWaitMs: 10_000, graceMs: 2_000 });
    try {
      // Each run waits in its API call until both have called: with one worker the first would time out alone.
      const { host } = barrier(2);
      const source = 'export async function onSubmit(ctx) { return await ctx.records.get("F1", "x") }';
      const [a, b] = await Promise.all([poolRun(pool, source, host, 200), poolRun(pool, source, host, 200)]);
      expect(a).toMatchObject({ status: 'ok', value: { ok: true } });
      expect(b).toMatchObject({ status: 'ok', value: { ok: true } });
      expect(pool.stats()).toMatchObject({ workers: 2, busy: 0, started: 2 });
    } finally {
      await pool.close();
    }
  });

  it('queues runs beyond its workers and refuses them as busy past the bound', async () => {
    const pool = new SandboxPool({ size: 1, maxQueued: 1, maxWaitMs: 10_000, graceMs: 2_000 });
    try {
      const held = barrier(2);
      const source = 'export async function onSubmit(ctx) { return await ctx.records.get("F1", "x") }';
      const first = poolRun(pool, source, held.host, 5_000);
      await until(() => held.arrived() === 1);
      const second = poolRun(pool, 'export function onSubmit() { return 2 }', held.host);
      await until(() => pool.stats().queued === 1);
      await expect(poolRun(pool, 'export function onSubmit() { return 3 }', held.host)).rejects.toMatchObject({ code: 410006 });
      held.release();
      expect(await first).toMatchObject({ status: 'ok' });
      expect(await second).toMatchObject({ status: 'ok', value: 2 });
    } finally {
      await pool.close();
    }
  });

  it('ends a worker that stays silent past the run’s wall-clock bound (a time-out) and starts another', async () => {
    const pool = new SandboxPool({ size: 1, maxQueued: 1, maxWaitMs: 10_000, graceMs: 50 });
    try {
      // The API call outlives the bound (100 ms of CPU: 1 s in all): the worker waits for its answer, the pool does not.
      const slow: PoolHost = { immediate: () => undefined, call: () => new Promise((resolve) => setTimeout(() => resolve(1), 1_600)) };
      const stuck = await poolRun(pool, 'export async function onSubmit(ctx) { return await ctx.records.count("F1") }', slow, 100);
      expect(stuck).toMatchObject({ status: 'timeout' });
      expect(stuck.message).toContain('超时');
      expect(await poolRun(pool, 'export function onSubmit() { return 1 }', slow)).toMatchObject({ status: 'ok', value: 1 });
      expect(pool.stats().started).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('a memory bomb ends its worker, not the process; the next run gets a fresh one', async () => {
    const before = sandboxPoolStats().started;
    const { js } = await compileScript('export function onSubmit() { const a = []; while (true) a.push("x".repeat(100000) + a.length) }', 'js');
    const bomb = await runInSandbox({ js, entry: 'onSubmit', input: {}, info, host: quietHost, limits: { cpuMs: 10_000, memoryBytes: 32 * 1024 * 1024 } });
    expect(bomb).toMatchObject({ status: 'memory', message: '脚本使用的内存超过上限' });
    const { js: plain } = await compileScript('export function onSubmit() { return process === undefined }', 'js');
    const next = await runInSandbox({ js: plain, entry: 'onSubmit', input: {}, info, host: quietHost });
    expect(next.status).toBe('error');
    expect(next.message).toContain('process');
    expect(sandboxPoolStats().started).toBeGreaterThan(before);
  });
});

describe('the sandbox pool in the app', () => {
  let t: TestApp | undefined, a: OrgClient, member: OrgClient, spin: string, plain: string;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await registerPerson(t.app, { userName: '王管理' });
    a = nodeClient(t.app, admin);
    const appCode = (await createApp(a, { displayName: '脚本' })).code;
    spin = (await createForm(a, appCode, { displayName: '死循环' })).code as string;
    plain = (await createForm(a, appCode, { displayName: '普通' })).code as string;
    await publish(a, spin, definition([{ type: 'textBox', code: 'Note' }]));
    await publish(a, plain, definition([{ type: 'textBox', code: 'Title' }]));
    await a.post('/v1/codeeditor/save', { appCode, schemaCode: spin, part: 'form-server', language: 'js', source: 'export function onLoad() { for (;;) {} }', baseVersion: 0 });
    const other = await addInvitedMember(t, admin, { name: '赵成员' });
    await grant(a, appCode, other.userId, 'access');
    member = nodeClient(t.app, other);
    await a.post('/v1/bizdata/query', { schemaCode: plain, pageIndex: 0, pageSize: 20 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers another user’s request while an endless loop runs, and stops the loop with the time-out', async () => {
    const finished: string[] = [];
    const hostile = a.raw('POST', '/v1/form/loaddata', { schemaCode: spin }).then((res) => {
      finished.push('hostile');
      return res;
    });
    await until(() => sandboxPoolStats().busy > 0);
    for (let i = 0; i < 3; i++) {
      const list = await member.post('/v1/bizdata/query', { schemaCode: plain, pageIndex: 0, pageSize: 20 });
      expect(list.total).toBe(0);
    }
    finished.push('plain');
    expect((await hostile).body).toMatchObject({ successful: false, errorCode: 410003 });
    expect(finished).toEqual(['plain', 'hostile']);
  });

  it('closes the pool’s workers with the app', async () => {
    expect(sandboxPoolStats().workers).toBeGreaterThan(0);
    await t!.close();
    t = undefined;
    expect(sandboxPoolStats()).toMatchObject({ workers: 0, busy: 0 });
  });
});
