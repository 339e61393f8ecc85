import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/types.ts';
import { newId } from '../lib/ids.ts';
import { JobLostError, type JobContext, type JobRegistry } from './job-registry.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { publishLive } from '../lib/live-events.ts';

/** The message of a job the database connection dropped under (a retry starts it again). */
export const DATABASE_LOST_MESSAGE = '任务执行中断（数据库连接中断），可重试';

export interface JobRunnerOptions {
  db: Db;
  registry: JobRegistry;
  /** How long a claim holds without renewal; a Running job past it is swept to Timeout. */
  leaseMs: number;
  /** Idle wait between claims when started. */
  pollMs: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  workerId?: string;
}

export interface JobRunner {
  readonly workerId: string;
  /** Claims and runs one Waiting job; answers whether there was one. Tests drive the runner with it. */
  runOnce(): Promise<boolean>;
  /** Marks Running jobs whose lease expired as Timeout; answers how many. */
  sweep(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

interface ClaimedJob {
  id: string;
  engine_code: string;
  kind: string;
  payload: unknown;
  attempts: number;
  created_by: string | null;
}

export interface NewJob {
  engineCode: string;
  kind: string;
  payload: unknown;
  createdBy?: string;
  /** Not claimed before this many milliseconds have passed (a retry's back-off). */
  delayMs?: number;
}

/** Queues a job (in the caller's transaction when one is given). */
export async function enqueueJob(executor: Db, job: NewJob): Promise<string> {
  const [id] = await enqueueJobs(executor, [job]);
  return id!;
}

/** Queues several jobs in one statement. */
export async function enqueueJobs(executor: Db, jobs: readonly NewJob[]): Promise<string[]> {
  if (!jobs.length) return [];
  const rows = jobs.map((job) => ({
    id: newId(),
    engine_code: job.engineCode,
    kind: job.kind,
    payload: JSON.stringify(job.payload ?? {}),
    created_by: job.createdBy ?? null,
    ...(job.delayMs ? { run_after: sql<Date>`now() + ${`${Math.round(job.delayMs)} milliseconds`}::interval` } : {}),
  }));
  await executor.insertInto('platform.jobs').values(rows as never).execute();
  return rows.map((r) => r.id);
}

/** A Timeout (or Failed) job goes back to Waiting; its next claim is a new attempt. Answers false when not retryable. */
export async function retryJob(executor: Db, id: string, retryable: readonly string[] = ['Timeout']): Promise<boolean> {
  const r = await executor
    .updateTable('platform.jobs')
    .set({ state: 'Waiting', progress: 0, message: null, worker_id: null, lease_until: null, finished_time: null })
    .where('id', '=', id)
    .where('state', 'in', [...retryable])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, registry, leaseMs } = options;
  const workerId = options.workerId ?? randomUUID();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  let lastSweep = 0;
  let databaseAway = false;
  const leaseInterval = sql<Date>`now() + ${`${leaseMs} milliseconds`}::interval`;

  /** Claims the oldest due Waiting job in one statement: the row is chosen and locked (SKIP LOCKED) and moved to Running. */
  async function claim(): Promise<ClaimedJob | undefined> {
    const kinds = registry.kinds();
    if (!kinds.length) return undefined;
    const next = db
      .selectFrom('platform.jobs')
      .select('id')
      .where('state', '=', 'Waiting')
      .where('kind', 'in', kinds)
      .where('run_after', '<=', sql<Date>`now()`)
      .orderBy('created_time')
      .limit(1)
      .forUpdate()
      .skipLocked();
    const row = await db
      .updateTable('platform.jobs')
      .set({ state: 'Running', worker_id: workerId, lease_until: leaseInterval, attempts: sql`attempts + 1`, started_time: sql`now()`, progress: 0, message: null })
      .where('id', '=', (eb) => eb.selectFrom(next.as('n')).select('n.id'))
      .where('state', '=', 'Waiting')
      .returning(['id', 'engine_code', 'kind', 'payload', 'attempts', 'created_by'])
      .executeTakeFirst();
    return row ?? undefined;
  }

  /** The claim this worker holds: same worker, same attempt, still Running. */
  const owned = (executor: Db, job: ClaimedJob) =>
    executor.updateTable('platform.jobs').where('id', '=', job.id).where('worker_id', '=', workerId).where('attempts', '=', job.attempts).where('state', '=', 'Running');

  /** Tells the job's creator's browsers how it stands (live events; a job nobody started is told to nobody). */
  async function announce(job: ClaimedJob, state: string, progress: number): Promise<void> {
    if (!job.created_by) return;
    await publishLive(db, { e: job.engine_code, u: [job.created_by], k: 'job', d: { jobId: job.id, kind: job.kind, state, progress } }).catch(() => undefined);
  }

  async function execute(job: ClaimedJob): Promise<void> {
    const handler = registry.get(job.kind)!;
    const renew = async () => {
      const r = await owned(db, job).set({ lease_until: leaseInterval }).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw new JobLostError(job.id);
    };
    // Renews the lease while the handler runs, so a long step does not lose it.
    const heartbeat = setInterval(() => void renew().catch(() => undefined), Math.max(50, Math.floor(leaseMs / 3)));
    const ctx: JobContext = {
      db,
      jobId: job.id,
      engineCode: job.engine_code,
      payload: job.payload,
      attempt: job.attempts,
      createdBy: job.created_by,
      async reportProgress(progress, message) {
        const p = Math.max(0, Math.min(99, Math.round(progress)));
        const r = await owned(db, job)
          .set({ progress: p, lease_until: leaseInterval, ...(message === undefined ? {} : { message }) })
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw new JobLostError(job.id);
        await announce(job, 'Running', p);
      },
      async assertOwned(executor = db) {
        const r = await owned(executor, job).set({ lease_until: leaseInterval }).executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw new JobLostError(job.id);
      },
    };
    try {
      const result = await handler.run(ctx);
      await owned(db, job)
        .set({ state: 'Finished', progress: 100, result: JSON.stringify(result ?? null), finished_time: sql`now()`, lease_until: null })
        .execute();
      await announce(job, 'Finished', 100);
    } catch (error) {
      if (error instanceof JobLostError) {
        options.log?.warn({ jobId: job.id }, 'job lost its lease');
        return;
      }
      if (isDatabaseUnavailable(error)) {
        // The database went away under the job (restart, failover): not the job's fault, so it ends Timeout and can
        // be retried, like a job whose worker died. If the database is still away, the lease runs out and the sweep
        // (of this process or another) makes it Timeout (docs/decisions/0027).
        options.log?.warn({ jobId: job.id, kind: job.kind, err: error }, 'job interrupted: database unavailable');
        await owned(db, job)
          .set({ state: 'Timeout', message: DATABASE_LOST_MESSAGE, finished_time: sql`now()`, lease_until: null })
          .execute()
          .catch(() => undefined);
        return;
      }
      options.log?.error({ err: error, jobId: job.id, kind: job.kind }, 'job failed');
      await owned(db, job)
        .set({ state: 'Failed', message: error instanceof Error ? error.message.slice(0, 500) : String(error), finished_time: sql`now()`, lease_until: null })
        .execute();
      await announce(job, 'Failed', 0);
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function sweep(): Promise<number> {
    lastSweep = Date.now();
    const r = await db
      .updateTable('platform.jobs')
      .set({ state: 'Timeout', message: '任务执行超时（处理进程已停止）', finished_time: sql`now()`, lease_until: null })
      .where('state', '=', 'Running')
      .where('lease_until', '<', sql<Date>`now()`)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async function runOnce(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    await execute(job);
    return true;
  }

  async function loop(): Promise<void> {
    if (stopped) return;
    let worked = false;
    try {
      if (Date.now() - lastSweep >= leaseMs) await sweep();
      const current = runOnce();
      running = current;
      worked = await current;
      databaseAway = false;
    } catch (error) {
      // While the database is away every step fails the same way: say so once, keep polling, resume when it is back.
      if (!isDatabaseUnavailable(error)) options.log?.error({ err: error }, 'job runner step failed');
      else if (!databaseAway) options.log?.warn({ err: error }, 'job runner waiting for the database');
      databaseAway = isDatabaseUnavailable(error);
    } finally {
      running = undefined;
    }
    if (!stopped) timer = setTimeout(() => void loop(), worked ? 0 : options.pollMs);
  }

  return {
    workerId,
    runOnce,
    sweep,
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setTimeout(() => void loop(), 0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
