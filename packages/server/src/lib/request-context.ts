import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request (or job) whose work is running: set for each request by app.ts and around each job by the job runner, so
 * that a job queued during a request records that request's id and its log lines carry it (docs/decisions/0121).
 */
const current = new AsyncLocalStorage<{ requestId: string }>();

/** The id of the request whose work is running here, if any. */
export function currentRequestId(): string | undefined {
  return current.getStore()?.requestId;
}

/** Runs `work` as part of request `requestId` (no id: as before). */
export function runAsRequest<T>(requestId: string | null | undefined, work: () => T): T {
  return requestId ? current.run({ requestId }, work) : work();
}
