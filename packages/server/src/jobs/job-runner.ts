import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/types.ts';
import { newId } from '../lib/ids.ts';
import { JobLostError, MAX_ATTEMPTS_WHEN_LOST, RUN_ALONE, type JobContext, type JobRegistry } from './job-registry.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { publishLive } from '../lib/live-events.ts';
import { currentRequestId, runAsRequest } from '../lib/request-context.ts';
import type { Listen, Listening } from '../db/database.ts';

/** The channel a job that becomes Waiting is announced on (migration 2026-11-27T1900; docs/decisions/0108). */
export const JOBS_CHANNEL = 'tritium_jobs';

/** The message of a job the database connection dropped under (a retry starts it again). */
export const DATABASE_LOST_MESSAGE = '任务执行中断（数据库连接中断），可重试';
/** The message of a job whose worker died and that went back to Waiting (JobHandler.requeueWhenLost). */
export const REQUEUED_MESSAGE = '处理进程已停止，任务已重新排队';

export interface JobRunnerOptions {
  db: Db;
  registry: JobRegistry;
  /** How long a claim holds without renewal; a Running job past it is swept to Timeout. */
  leaseMs: number;
  /** Idle wait between claims when started. */
  pollMs: number;
  /** Hears a queued job at once (NOTIFY on JOBS_CHANNEL) while started; without it the runner waits its poll. */
  listen?: Listen;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  workerId?: string;
}

export interface JobRunner {
  readonly workerId: string;
  /** Claims and runs one Waiting job; answers whether there was one. Tests drive the runner with it. */
  runOnce(): Promise<boolean>;
  /** Marks Running jobs whose lease expired as Timeout, or Waiting again for kinds that ask it; answers how many. */
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
  /** The request that queued the job: the job runs as part of it (log lines, jobs it queues in turn). */
  request_id: string | null;
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

/** Queues several jobs in one statement; each records the request (or job) that queued it, when there is one. */
export async function enqueueJobs(executor: Db, jobs: readonly NewJob[]): Promise<string[]> {
  if (!jobs.length) return [];
  const requestId = currentRequestId() ?? null;
  const rows = jobs.map((job) => ({
    id: newId(),
    engine_code: job.engineCode,
    kind: job.kind,
    payload: JSON.stringify(job.payload ?? {}),
    created_by: job.createdBy ?? null,
    request_id: requestId,
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
  /** A step is under way (from its timer to the next one being set). */
  let stepping = false;
  /** A job was queued while a step ran: the next step follows at once. */
  let woken = false;
  let listening: Promise<Listening | undefined> | undefined;
  const leaseInterval = sql<Date>`now() + ${`${leaseMs} milliseconds`}::interval`;

  /**
   * Claims the oldest due Waiting job in one statement: the row is chosen and locked (SKIP LOCKED) and moved to
   * Running. When its kind runs in batches, the same statement claims more due jobs of that kind and engine.
   */
  async function claim(): Promise<ClaimedJob[]> {
    const kinds = registry.kinds();
    if (!kinds.length) return [];
    const batching = registry.batching();
    const { rows } = await sql<ClaimedJob & { created_time: Date }>`
      with first as (
        select id, kind, engine_code from platform.jobs
        where state = 'Waiting' and kind in (${sql.join(kinds)}) and run_after <= now()
        order by created_time limit 1 for update skip locked
      ), more as (
        select j.id from platform.jobs j join first f on j.kind = f.kind and j.engine_code = f.engine_code
        where ${batching.kinds.length ? sql`f.kind in (${sql.join(batching.kinds)})` : sql`false`}
          and j.state = 'Waiting' and j.id <> f.id and j.run_after <= now()
        order by j.created_time limit ${batching.max - 1} for update of j skip locked
      )
      update platform.jobs set state = 'Running', worker_id = ${workerId}, lease_until = ${leaseInterval}, attempts = attempts + 1,
        started_time = now(), progress = 0, message = null
      where id in (select id from first union all select id from more) and state = 'Waiting'
      returning id, engine_code, kind, payload, attempts, created_by, request_id, created_time`.execute(db);
    return rows.sort((a, b) => +new Date(a.created_time) - +new Date(b.created_time)).map(({ created_time: _, ...job }) => job);
  }

  /** The claim this worker holds: same worker, same attempt, still Running. */
  const owned = (executor: Db, job: ClaimedJob) =>
    executor.updateTable('platform.jobs').where('id', '=', job.id).where('worker_id', '=', workerId).where('attempts', '=', job.attempts).where('state', '=', 'Running');

  /** Tells the job's creator's browsers how it stands (live events; a job nobody started is told to nobody). */
  async function announce(job: ClaimedJob, state: string, progress: number): Promise<void> {
    if (!job.created_by) return;
    await publishLive(db, { e: job.engine_code, u: [job.created_by], k: 'job', d: { jobId: job.id, kind: job.kind, state, progress } }).catch(() => undefined);
  }

  /** Renews the leases of jobs while their handler runs, so a long step does not lose them. */
  function heartbeatOf(jobs: readonly ClaimedJob[]): NodeJS.Timeout {
    const renew = () =>
      db
        .updateTable('platform.jobs')
        .set({ lease_until: leaseInterval })
        .where('id', 'in', jobs.map((j) => j.id))
        .where('worker_id', '=', workerId)
        .where('state', '=', 'Running')
        .execute();
    return setInterval(() => void renew().catch(() => undefined), Math.max(50, Math.floor(leaseMs / 3)));
  }

  function contextOf(job: ClaimedJob): JobContext {
    return {
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
  }

  async function execute(job: ClaimedJob): Promise<void> {
    const handler = registry.get(job.kind)!;
    const heartbeat = heartbeatOf([job]);
    const ctx = contextOf(job);
    try {
      const result = await runAsRequest(job.request_id, () => handler.run(ctx));
      await owned(db, job)
        .set({ state: 'Finished', progress: 100, result: JSON.stringify(result ?? null), finished_time: sql`now()`, lease_until: null })
        .execute();
      await announce(job, 'Finished', 100);
    } catch (error) {
      if (error instanceof JobLostError) {
        options.log?.warn({ jobId: job.id, kind: job.kind, reqId: job.request_id }, 'job lost its lease');
        return;
      }
      if (isDatabaseUnavailable(error)) {
        // The database went away under the job (restart, failover): not the job's fault, so it ends Timeout and can
        // be retried, like a job whose worker died. If the database is still away, the lease runs out and the sweep
        // (of this process or another) makes it Timeout (docs/decisions/0027).
        options.log?.warn({ jobId: job.id, kind: job.kind, reqId: job.request_id, err: error }, 'job interrupted: database unavailable');
        await owned(db, job)
          .set({ state: 'Timeout', message: DATABASE_LOST_MESSAGE, finished_time: sql`now()`, lease_until: null })
          .execute()
          .catch(() => undefined);
        return;
      }
      options.log?.error({ err: error, jobId: job.id, kind: job.kind, reqId: job.request_id }, 'job failed');
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
    const requeue = registry.requeuedWhenLost();
    let requeued = 0;
    if (requeue.length) {
      const back = await db
        .updateTable('platform.jobs')
        .set({ state: 'Waiting', progress: 0, message: REQUEUED_MESSAGE, worker_id: null, lease_until: null })
        .where('state', '=', 'Running')
        .where('lease_until', '<', sql<Date>`now()`)
        .where('kind', 'in', requeue)
        .where('attempts', '<', MAX_ATTEMPTS_WHEN_LOST)
        .executeTakeFirst();
      requeued = Number(back.numUpdatedRows);
    }
    const r = await db
      .updateTable('platform.jobs')
      .set({ state: 'Timeout', message: '任务执行超时（处理进程已停止）', finished_time: sql`now()`, lease_until: null })
      .where('state', '=', 'Running')
      .where('lease_until', '<', sql<Date>`now()`)
      .executeTakeFirst();
    return requeued + Number(r.numUpdatedRows);
  }

  /**
   * Runs claimed jobs of one batching kind together and ends them Finished in one statement. When the batch throws
   * (it left nothing behind), each job runs alone, where its own failure, retry or loss is handled as usual.
   */
  async function executeBatch(jobs: ClaimedJob[]): Promise<void> {
    const handler = registry.get(jobs[0]!.kind)!;
    const heartbeat = heartbeatOf(jobs);
    let results: unknown[];
    try {
      results = await handler.batch!.run(jobs.map(contextOf));
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        options.log?.warn({ err: error, kind: jobs[0]!.kind }, 'job batch interrupted: database unavailable');
        await db
          .updateTable('platform.jobs')
          .set({ state: 'Timeout', message: DATABASE_LOST_MESSAGE, finished_time: sql`now()`, lease_until: null })
          .where('id', 'in', jobs.map((j) => j.id))
          .where('worker_id', '=', workerId)
          .where('state', '=', 'Running')
          .execute()
          .catch(() => undefined);
        return;
      }
      options.log?.warn({ err: error, kind: jobs[0]!.kind, jobs: jobs.length }, 'job batch failed: its jobs run one by one');
      for (const job of jobs) await execute(job);
      return;
    } finally {
      clearInterval(heartbeat);
    }
    const finished = jobs.filter((_, i) => results[i] !== RUN_ALONE);
    const values = finished.map((job) => sql`(${job.id}, ${job.attempts}::int, ${JSON.stringify(results[jobs.indexOf(job)] ?? null)}::jsonb)`);
    if (values.length)
      await sql`
      update platform.jobs j set state = 'Finished', progress = 100, result = v.result, finished_time = now(), lease_until = null
      from (values ${sql.join(values)}) as v(id, attempts, result)
      where j.id = v.id and j.worker_id = ${workerId} and j.attempts = v.attempts and j.state = 'Running'`.execute(db);
    await Promise.all(finished.map((job) => announce(job, 'Finished', 100)));
    for (const [i, job] of jobs.entries()) if (results[i] === RUN_ALONE) await execute(job);
  }

  async function runOnce(): Promise<boolean> {
    const jobs = await claim();
    if (!jobs.length) return false;
    const batch = registry.get(jobs[0]!.kind)?.batch;
    if (jobs.length === 1 || !batch) {
      for (const job of jobs) await execute(job);
      return true;
    }
    for (let i = 0; i < jobs.length; i += batch.max) {
      const part = jobs.slice(i, i + batch.max);
      await (part.length === 1 ? execute(part[0]!) : executeBatch(part));
    }
    return true;
  }

  /** A job was queued somewhere: an idle runner claims now instead of at the end of its poll. */
  function wake(): void {
    if (stopped) return;
    if (stepping) return void (woken = true);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void loop(), 0);
  }

  async function loop(): Promise<void> {
    if (stopped) return;
    stepping = true;
    woken = false;
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
    stepping = false;
    if (!stopped) timer = setTimeout(() => void loop(), worked || woken ? 0 : options.pollMs);
  }

  return {
    workerId,
    runOnce,
    sweep,
    start() {
      if (!stopped) return;
      stopped = false;
      // A database that is away still lets the runner start: it polls, and hears once the LISTEN is in place. A job
      // queued before then was not heard: the runner looks once more as soon as it hears (decision 0108).
      listening ??= options.listen?.(JOBS_CHANNEL, wake, wake).then(
        (heard) => (void heard.ready().then(wake, () => undefined), heard),
        () => undefined,
      );
      timer = setTimeout(() => void loop(), 0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const heard = listening;
      listening = undefined;
      await Promise.all([running?.catch(() => undefined), heard?.then((l) => l?.stop()).catch(() => undefined)]);
    },
  };
}
