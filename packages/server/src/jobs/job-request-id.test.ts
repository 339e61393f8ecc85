import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openTestDatabase, registerPerson } from '../../test/helpers.ts';
import type { Database } from '../db/database.ts';
import { currentRequestId } from '../lib/request-context.ts';
import { buildOperationsApp } from '../../test/operations-app.ts';
import { JobRegistry } from './job-registry.ts';
import { createJobRunner, enqueueJob } from './job-runner.ts';

// A job queued by a request records the request's id; the job runs as part of that request, so its log lines carry
// the id (as `reqId`, the key of Fastify's request log lines) and so do the jobs it queues in turn (docs/decisions/0121).

let database: Database;
let app: FastifyInstance;
let engineCode: string;
beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildOperationsApp(database, {
    routes: (a) =>
      a.post('/test/queue-job', { config: { access: 'public' } }, async (request) => ({
        jobId: await enqueueJob(database.db, { engineCode, kind: (request.body as { kind: string }).kind, payload: {} }),
      })),
  });
  engineCode = (await registerPerson(app)).engineCode;
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('the request id in jobs', () => {
  it('is recorded with a job a request queued, seen by its handler and its follow-up jobs, and carried by its log lines', async () => {
    const res = await app.inject({ method: 'POST', url: '/test/queue-job', headers: { 'x-request-id': 'req-trace-0001' }, payload: { kind: 'trace.first' } });
    expect(res.headers['x-request-id']).toBe('req-trace-0001');
    const { jobId } = res.json() as { jobId: string };
    const row = await database.db.selectFrom('platform.jobs').select('request_id').where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(row.request_id).toBe('req-trace-0001');

    const seen: (string | undefined)[] = [];
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    const log = { warn: (obj: object, msg: string) => lines.push({ obj: obj as never, msg }), error: (obj: object, msg: string) => lines.push({ obj: obj as never, msg }) };
    const registry = new JobRegistry()
      .register('trace.first', {
        async run(ctx) {
          seen.push(currentRequestId());
          await enqueueJob(ctx.db, { engineCode: ctx.engineCode, kind: 'trace.second', payload: {} });
        },
      })
      .register('trace.second', {
        async run() {
          seen.push(currentRequestId());
          throw new Error('second step failed');
        },
      });
    const runner = createJobRunner({ db: database.db, registry, leaseMs: 30_000, pollMs: 1_000, log });
    onTestFinished(() => runner.stop());
    expect(await runner.runOnce()).toBe(true);
    expect(await runner.runOnce()).toBe(true);
    expect(seen).toEqual(['req-trace-0001', 'req-trace-0001']);
    const second = await database.db.selectFrom('platform.jobs').select(['request_id', 'state']).where('kind', '=', 'trace.second').executeTakeFirstOrThrow();
    expect(second).toEqual({ request_id: 'req-trace-0001', state: 'Failed' });
    expect(lines).toContainEqual({ obj: expect.objectContaining({ reqId: 'req-trace-0001', kind: 'trace.second' }), msg: 'job failed' });
  });

  it('a job queued outside any request has none', async () => {
    const id = await enqueueJob(database.db, { engineCode, kind: 'trace.none', payload: {} });
    const row = await database.db.selectFrom('platform.jobs').select('request_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.request_id).toBeNull();
  });
});
