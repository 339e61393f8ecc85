import type { Db } from '../db/types.ts';

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
}

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
}

/** The job is no longer held by this worker (its lease expired and it was swept, or it was retried). */
export class JobLostError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} is no longer held by this worker`);
  }
}
