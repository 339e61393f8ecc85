import type { Db } from '../db/types.ts';

/** A batch's answer for a job it left out: the job runner runs that job alone afterwards. */
export const RUN_ALONE: unique symbol = Symbol('run alone');

/** One claimed job as its handler sees it. */
export interface JobContext {
  db: Db;
  jobId: string;
  engineCode: string;
  payload: unknown;
  /** The attempt number of this run (1 for the first). */
  attempt: number;
  createdBy: string | null;
  /** Records progress (0–100) and renews the lease; throws JobLostError when the job is no longer this worker's. */
  reportProgress(progress: number, message?: string): Promise<void>;
  /** Throws JobLostError when the job was swept (Timeout) or taken by another attempt meanwhile. */
  assertOwned(executor?: Db): Promise<void>;
}

export interface JobHandler {
  /** Runs the job; the answer is stored as the job's result. Must leave no visible trace when it dies midway. */
  run(ctx: JobContext): Promise<unknown>;
  /**
   * Jobs of this kind may be claimed several at a time (of one engine, up to `max`) and run together, to save a
   * transaction and its round trips per job. `run` answers each job's result in order (RUN_ALONE for a job it left
   * to run alone) and must be all or nothing: when it throws, every job of the batch runs alone through `run`.
   */
  batch?: { max: number; run(ctxs: JobContext[]): Promise<unknown[]> };
  /**
   * A job of this kind whose worker died (its lease ran out) goes back to Waiting for any process to take up, for up to
   * MAX_ATTEMPTS_WHEN_LOST attempts, instead of ending Timeout for a person to retry (docs/decisions/0129): for kinds
   * whose work is idempotent and whose person has no decision to make — an export's file, derived data. Imports,
   * prints, copies, automation runs and deliveries keep Timeout: their states are the spec's, or a second run would
   * reach outside (a message sent twice).
   */
  requeueWhenLost?: boolean;
}

/** How many attempts a `requeueWhenLost` job gets before a lost one ends Timeout (a job that kills its process stops). */
export const MAX_ATTEMPTS_WHEN_LOST = 3;

/** Handlers by kind: the runner looks them up here (no switch over kinds). */
export class JobRegistry {
  private readonly handlers = new Map<string, JobHandler>();

  register(kind: string, handler: JobHandler): this {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
    this.handlers.set(kind, handler);
    return this;
  }

  get(kind: string): JobHandler | undefined {
    return this.handlers.get(kind);
  }

  kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /** The kinds whose lost jobs go back to Waiting (JobHandler.requeueWhenLost). */
  requeuedWhenLost(): string[] {
    return [...this.handlers].filter(([, h]) => h.requeueWhenLost).map(([k]) => k);
  }

  /** The kinds whose jobs may be claimed several at a time, and the largest batch any of them takes. */
  batching(): { kinds: string[]; max: number } {
    const batched = [...this.handlers].filter(([, h]) => h.batch && h.batch.max > 1);
    return { kinds: batched.map(([k]) => k), max: Math.max(1, ...batched.map(([, h]) => h.batch!.max)) };
  }
}

/** The job is no longer held by this worker (its lease expired and it was swept, or it was retried). */
export class JobLostError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} is no longer held by this worker`);
  }
}
