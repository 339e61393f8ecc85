import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type KyselyPlugin } from 'kysely';
import { createTestApp, registerPerson, type TestApp } from '../../test/helpers.ts';
import { JobRegistry, MAX_ATTEMPTS_WHEN_LOST, RUN_ALONE, type JobContext } from './job-registry.ts';
import { createJobRunner, DATABASE_LOST_MESSAGE, enqueueJob, JOBS_CHANNEL, REQUEUED_MESSAGE, retryJob } from './job-runner.ts';
import type { Listen } from '../db/database.ts';

// test-databases: both — claims with FOR UPDATE SKIP LOCKED and leases (docs/testing.md "Runs on both databases").

let t: TestApp;
let engineCode: string;
beforeAll(async () => {
  t = await createTestApp();
  engineCode = (await registerPerson(t.app)).engineCode;
});
afterAll(() => t.close());

const jobRow = (id: string) => t.database.db.selectFrom('platform.jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

/**
 * The test database, counting the runner's claims answered (the statement that locks with SKIP LOCKED). Once the first
 * is in, a runner that found nothing sleeps for its poll: what follows the answer runs before any other I/O is handled.
 */
function countingClaims() {
  let answered = 0;
  const claimQueries = new WeakSet<object>();
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      if (JSON.stringify(args.node).includes('skip locked')) claimQueries.add(args.queryId);
      return args.node;
    },
    transformResult: async (args) => {
      if (claimQueries.has(args.queryId)) answered += 1;
      return args.result;
    },
  };
  return { db: t.database.db.withPlugin(plugin), answered: () => answered };
}

describe('job runner', () => {
  it('registers one handler per kind', () => {
    const registry = new JobRegistry().register('a', { run: async () => 1 });
    expect(() => registry.register('a', { run: async () => 2 })).toThrow(/twice/);
  });

  it('two runners never run the same job: each of 6 jobs runs exactly once', async () => {
    const kind = 'test.count';
    const runs = new Map<string, number>();
    const registry = new JobRegistry().register(kind, {
      run: async (ctx) => {
        runs.set(ctx.jobId, (runs.get(ctx.jobId) ?? 0) + 1);
        await ctx.reportProgress(50);
        return { ok: true };
      },
    });
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await enqueueJob(t.database.db, { engineCode, kind, payload: { i } }));
    const r1 = createJobRunner({ db: t.database.db, registry, leaseMs: 5000, pollMs: 10 });
    const r2 = createJobRunner({ db: t.database.db, registry, leaseMs: 5000, pollMs: 10 });
    const drain = async (r: typeof r1) => {
      let n = 0;
      while (await r.runOnce()) n++;
      return n;
    };
    const [n1, n2] = await Promise.all([drain(r1), drain(r2)]);
    expect(n1 + n2).toBe(6);
    for (const id of ids) {
      expect(runs.get(id)).toBe(1);
      expect(await jobRow(id)).toMatchObject({ state: 'Finished', progress: 100, attempts: 1, result: { ok: true } });
    }
  });

  it('a batching kind is claimed several at a time; a batch that throws runs its jobs alone, and a job it leaves out runs alone after it', async () => {
    const kind = 'test.batch';
    const sizes: number[] = [];
    const alone: number[] = [];
    let failNext = false;
    const numberOf = (ctx: JobContext) => (ctx.payload as { i: number }).i;
    const registry = new JobRegistry().register(kind, {
      run: async (ctx) => (alone.push(numberOf(ctx)), { alone: true }),
      batch: {
        max: 3,
        run: async (ctxs) => {
          sizes.push(ctxs.length);
          if (failNext) throw ((failNext = false), new Error('one of the batch failed'));
          return ctxs.map((ctx) => (numberOf(ctx) === 9 ? RUN_ALONE : { batch: true }));
        },
      },
    });
    const enqueue = async (numbers: number[]) => {
      const ids: string[] = [];
      for (const i of numbers) ids.push(await enqueueJob(t.database.db, { engineCode, kind, payload: { i } }));
      return ids;
    };
    const runner = createJobRunner({ db: t.database.db, registry, leaseMs: 5000, pollMs: 10 });
    const first = await enqueue([1, 2, 3, 4, 5]);
    expect(await runner.runOnce()).toBe(true);
    expect(sizes).toEqual([3]);
    failNext = true;
    expect(await runner.runOnce()).toBe(true);
    expect(sizes).toEqual([3, 2]);
    expect(alone).toEqual([4, 5]);
    const results = await Promise.all(first.map(async (id) => (await jobRow(id)).result));
    expect(results).toEqual([{ batch: true }, { batch: true }, { batch: true }, { alone: true }, { alone: true }]);

    const second = await enqueue([8, 9]);
    expect(await runner.runOnce()).toBe(true);
    expect(alone).toEqual([4, 5, 9]);
    expect(await jobRow(second[0]!)).toMatchObject({ state: 'Finished', attempts: 1, result: { batch: true } });
    expect(await jobRow(second[1]!)).toMatchObject({ state: 'Finished', attempts: 1, result: { alone: true } });
    expect(await runner.runOnce()).toBe(false);
  });

  it('a job being run is not claimed by a second runner', async () => {
    const kind = 'test.block';
    const gate = deferred();
    const started = deferred();
    const registry = new JobRegistry().register(kind, {
      run: async () => {
        started.resolve();
        await gate.promise;
      },
    });
    const id = await enqueueJob(t.database.db, { engineCode, kind, payload: {} });
    const r1 = createJobRunner({ db: t.database.db, registry, leaseMs: 5000, pollMs: 10 });
    const r2 = createJobRunner({ db: t.database.db, registry, leaseMs: 5000, pollMs: 10 });
    const first = r1.runOnce();
    await started.promise;
    expect(await r2.runOnce()).toBe(false);
    expect(await jobRow(id)).toMatchObject({ state: 'Running', worker_id: r1.workerId });
    gate.resolve();
    expect(await first).toBe(true);
    expect((await jobRow(id)).state).toBe('Finished');
  });

  it('a Running job whose lease expired (its worker died) is swept to Timeout, then retried as a new attempt', async () => {
    const kind = 'test.retry';
    const registry = new JobRegistry().register(kind, { run: async (ctx) => ({ attempt: ctx.attempt }) });
    const id = await enqueueJob(t.database.db, { engineCode, kind, payload: {} });
    // A worker claimed it and died: Running, lease in the past.
    await t.database.db.updateTable('platform.jobs').set({ state: 'Running', attempts: 1, worker_id: 'dead', lease_until: sql`now() - interval '1 second'` }).where('id', '=', id).execute();
    const runner = createJobRunner({ db: t.database.db, registry, leaseMs: 5000, pollMs: 10 });
    expect(await runner.runOnce()).toBe(false); // Running jobs are never claimed
    expect(await runner.sweep()).toBeGreaterThanOrEqual(1);
    expect(await jobRow(id)).toMatchObject({ state: 'Timeout' });
    expect(await retryJob(t.database.db, id)).toBe(true);
    expect(await retryJob(t.database.db, id)).toBe(false); // Waiting now, not Timeout
    expect(await runner.runOnce()).toBe(true);
    expect(await jobRow(id)).toMatchObject({ state: 'Finished', attempts: 2, result: { attempt: 2 } });
    expect(await retryJob(t.database.db, id)).toBe(false); // Finished jobs are not retried
  });

  it('a lost job of a kind that asks it goes back to Waiting for another runner, until its attempts run out', async () => {
    const kind = 'test.requeue';
    const other = 'test.requeue-not';
    const registry = new JobRegistry()
      .register(kind, { requeueWhenLost: true, run: async (ctx) => ({ attempt: ctx.attempt }) })
      .register(other, { run: async () => ({}) });
    const lost = async (id: string, attempts: number) =>
      t.database.db.updateTable('platform.jobs').set({ state: 'Running', attempts, worker_id: 'dead', lease_until: sql`now() - interval '1 second'` }).where('id', '=', id).execute();
    const id = await enqueueJob(t.database.db, { engineCode, kind, payload: {} });
    const plain = await enqueueJob(t.database.db, { engineCode, kind: other, payload: {} });
    await lost(id, 1);
    await lost(plain, 1);
    const runner = createJobRunner({ db: t.database.db, registry, leaseMs: 5000, pollMs: 10 });
    expect(await runner.sweep()).toBeGreaterThanOrEqual(2);
    expect(await jobRow(id)).toMatchObject({ state: 'Waiting', message: REQUEUED_MESSAGE, worker_id: null, finished_time: null });
    expect(await jobRow(plain)).toMatchObject({ state: 'Timeout' });
    while (await runner.runOnce());
    expect(await jobRow(id)).toMatchObject({ state: 'Finished', attempts: 2, result: { attempt: 2 } });
    // The last attempt lost too: Timeout, for a person to retry, not a loop of processes dying on the same job.
    const last = await enqueueJob(t.database.db, { engineCode, kind, payload: {} });
    await lost(last, MAX_ATTEMPTS_WHEN_LOST);
    await runner.sweep();
    expect(await jobRow(last)).toMatchObject({ state: 'Timeout' });
  });

  it('a live worker renews its lease, so the sweep leaves its job alone', async () => {
    const kind = 'test.slow';
    const registry = new JobRegistry().register(kind, { run: async () => new Promise((r) => setTimeout(r, 1500)) });
    const id = await enqueueJob(t.database.db, { engineCode, kind, payload: {} });
    const runner = createJobRunner({ db: t.database.db, registry, leaseMs: 1000, pollMs: 10 });
    const done = runner.runOnce();
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 250));
      await runner.sweep();
    }
    await done;
    expect((await jobRow(id)).state).toBe('Finished');
  });

  it('a worker that lost its job to the sweep cannot finish it', async () => {
    const kind = 'test.lost';
    const gate = deferred();
    const started = deferred();
    const registry = new JobRegistry().register(kind, {
      run: async (ctx: JobContext) => {
        started.resolve();
        await gate.promise;
        await ctx.reportProgress(90);
        return 'late';
      },
    });
    const id = await enqueueJob(t.database.db, { engineCode, kind, payload: {} });
    const runner = createJobRunner({ db: t.database.db, registry, leaseMs: 60_000, pollMs: 10 });
    const run = runner.runOnce();
    await started.promise;
    await t.database.db.updateTable('platform.jobs').set({ lease_until: sql`now() - interval '1 second'` }).where('id', '=', id).execute();
    await runner.sweep();
    gate.resolve();
    await run;
    expect(await jobRow(id)).toMatchObject({ state: 'Timeout', result: null });
  });

  it('a handler error ends the job Failed with its message', async () => {
    const kind = 'test.fail';
    const registry = new JobRegistry().register(kind, {
      run: async () => {
        throw new Error('坏了');
      },
    });
    const id = await enqueueJob(t.database.db, { engineCode, kind, payload: {} });
    await createJobRunner({ db: t.database.db, registry, leaseMs: 5000, pollMs: 10 }).runOnce();
    expect(await jobRow(id)).toMatchObject({ state: 'Failed', message: '坏了' });
  });

  // docs/decisions/0108: a job that becomes Waiting is announced (NOTIFY) when its transaction commits, and a started
  // runner claims it then, not at the end of its poll. The poll here is ten minutes: only the wake can run the job.
  it('a started runner hears a job queued or retried elsewhere and claims it at once, not after its poll', async () => {
    const kind = 'test.wake';
    const ran: string[] = [];
    const registry = new JobRegistry().register(kind, {
      run: async (ctx) => {
        ran.push(ctx.jobId);
        if (ctx.attempt === 1 && (ctx.payload as { fail?: boolean }).fail) throw new Error('第一次失败');
        return {};
      },
    });
    const claims = countingClaims();
    const runner = createJobRunner({ db: claims.db, registry, leaseMs: 5000, pollMs: 600_000, listen: t.database.listen });
    runner.start();
    try {
      await expect.poll(claims.answered, { timeout: 15_000 }).toBeGreaterThan(0);
      const queued = await enqueueJob(t.database.db, { engineCode, kind, payload: {} });
      await expect.poll(async () => (await jobRow(queued)).state, { timeout: 15_000 }).toBe('Finished');

      const failing = await enqueueJob(t.database.db, { engineCode, kind, payload: { fail: true } });
      await expect.poll(async () => (await jobRow(failing)).state, { timeout: 15_000 }).toBe('Failed');
      expect(await retryJob(t.database.db, failing, ['Failed'])).toBe(true);
      await expect.poll(async () => (await jobRow(failing)).state, { timeout: 15_000 }).toBe('Finished');
      expect(ran).toEqual([queued, failing, failing]);
    } finally {
      await runner.stop();
    }
  });

  it('a job queued before the runner hears (its LISTEN still connecting) is claimed as soon as it hears', async () => {
    const kind = 'test.wake-late';
    const registry = new JobRegistry().register(kind, { run: async () => ({}) });
    let connect!: () => void;
    const connecting = new Promise<void>((resolve) => (connect = resolve));
    const lateListen: Listen = async (channel, onPayload, onGap) => {
      await connecting;
      return t.database.listen(channel, onPayload, onGap);
    };
    const claims = countingClaims();
    const runner = createJobRunner({ db: claims.db, registry, leaseMs: 5000, pollMs: 600_000, listen: lateListen });
    runner.start();
    try {
      // The runner's first look has found nothing before the job is queued, and nobody hears the job's NOTIFY.
      await expect.poll(claims.answered, { timeout: 15_000 }).toBeGreaterThan(0);
      const id = await enqueueJob(t.database.db, { engineCode, kind, payload: {} });
      connect();
      await expect.poll(async () => (await jobRow(id)).state, { timeout: 15_000 }).toBe('Finished');
    } finally {
      await runner.stop();
    }
  });

  it('queuing a batch of jobs in one transaction announces it once', async () => {
    const heard: string[] = [];
    const listening = await t.database.listen(JOBS_CHANNEL, (payload) => heard.push(payload));
    try {
      await listening.ready();
      await t.database.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 5; i++) await enqueueJob(trx, { engineCode, kind: 'test.unclaimed', payload: { i } });
      });
      await expect.poll(() => heard.length, { timeout: 15_000 }).toBe(1);
      await t.database.db.deleteFrom('platform.jobs').where('kind', '=', 'test.unclaimed').execute();
    } finally {
      await listening.stop();
    }
  });

  // The database drops the job's connection (restart, failover, terminated backend) while the job runs and is back
  // when the runner records the outcome: not the job's fault, so Timeout (retryable), not Failed. PGlite has no
  // connections to drop.
  it.runIf(process.env.TEST_DB_KIND === 'postgres')('a job whose database connection drops ends Timeout, and its retry runs', async () => {
    const kind = 'test.connection-lost';
    const registry = new JobRegistry().register(kind, {
      run: async (ctx) => {
        if (ctx.attempt === 1) await sql`select pg_terminate_backend(pg_backend_pid())`.execute(ctx.db);
        return { attempt: ctx.attempt };
      },
    });
    const runner = createJobRunner({ db: t.database.db, registry, leaseMs: 5000, pollMs: 10 });
    const id = await enqueueJob(t.database.db, { engineCode, kind, payload: {} });
    expect(await runner.runOnce()).toBe(true);
    expect(await jobRow(id)).toMatchObject({ state: 'Timeout', message: DATABASE_LOST_MESSAGE, attempts: 1 });
    expect(await retryJob(t.database.db, id)).toBe(true);
    expect(await runner.runOnce()).toBe(true);
    expect(await jobRow(id)).toMatchObject({ state: 'Finished', attempts: 2 });
  });
});
