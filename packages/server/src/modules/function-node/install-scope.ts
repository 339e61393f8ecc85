import { AsyncLocalStorage } from 'node:async_hooks';

// An app being installed from a package (docs/decisions/0130) is written through the designers' own services while
// its app node stays hidden (copy_job_id = the install job's id). Inside `withHiddenRowsOf(jobId, …)` — and only
// there, for that job's own calls — the node reads see that job's hidden rows as published, so the services find the
// app they are building; every other reader (lists, other requests, other jobs) still sees only published rows.

const scope = new AsyncLocalStorage<string>();

export function withHiddenRowsOf<T>(jobId: string, work: () => Promise<T>): Promise<T> {
  return scope.run(jobId, work);
}

/** The job whose hidden rows the current call may see, if any. */
export function hiddenRowsJob(): string | undefined {
  return scope.getStore();
}
