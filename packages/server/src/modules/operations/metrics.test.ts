import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openTestDatabase, registerPerson } from '../../../test/helpers.ts';
import type { Database } from '../../db/database.ts';
import { enqueueJob } from '../../jobs/job-runner.ts';
import { buildOperationsApp } from '../../../test/operations-app.ts';

// test-databases: both — the pool's figures exist on PostgreSQL only, and the job queue's statement runs on both.

// Prometheus metrics at /metrics (docs/decisions/0121): off unless switched on or guarded by a token; requests counted
// by route pattern and status class; the job queue, scheduler, live push and script sandbox read at scrape time.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('/metrics', () => {
  it('is not there by default', async () => {
    const app = await buildOperationsApp(database);
    onTestFinished(() => app.close());
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('tritium_');
  });

  it('with TRITIUM_METRICS=on counts requests by route pattern and status class, and reads the queue and the process', async () => {
    const app = await buildOperationsApp(database, { config: { metrics: true } });
    onTestFinished(() => app.close());
    for (const code of ['abc', 'def', 'ghi']) await app.inject({ method: 'GET', url: `/s/${code}` });
    await app.inject({ method: 'GET', url: '/healthz' });
    const { engineCode } = await registerPerson(app);
    await enqueueJob(database.db, { engineCode, kind: 'metrics.test', payload: {} });

    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    // Three short links, one series: the pattern, never the codes.
    const shortLinks = text.match(/^tritium_http_request_duration_seconds_count\{method="GET",route="\/s\/:code",status_class="(\dxx)"\} (\d+)$/m);
    expect(shortLinks?.[2]).toBe('3');
    expect(text).not.toMatch(/route="\/s\/abc"/);
    expect(text).toMatch(/^tritium_http_request_duration_seconds_count\{method="GET",route="\/healthz",status_class="2xx"\} 1$/m);
    expect(text).toMatch(/^tritium_jobs_queued\{kind="metrics\.test"\} 1$/m);
    expect(text).toMatch(/^tritium_jobs_oldest_queued_seconds\{kind="metrics\.test"\} [\d.e-]+$/m);
    expect(text).toMatch(/^tritium_live_connections 0$/m);
    expect(text).toMatch(/^tritium_scheduler_running 0$/m);
    expect(text).toMatch(/^tritium_script_sandbox\{state="queued"\} 0$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
    // The pool's figures are PostgreSQL's: shown there, absent on the embedded database.
    if (database.kind === 'postgres') expect(text).toMatch(/^tritium_db_pool_connections\{state="total"\} \d+$/m);
    else expect(text).not.toContain('tritium_db_pool_connections');

    // The scheduler's lag, once it ticks.
    app.extras.scheduler.start();
    await expect.poll(async () => (await app.inject({ method: 'GET', url: '/metrics' })).body, { timeout: 10_000 }).toMatch(/^tritium_scheduler_running 1$/m);
    expect((await app.inject({ method: 'GET', url: '/metrics' })).body).toMatch(/^tritium_scheduler_lag_seconds \d+(\.\d+)?(e-\d+)?$/m);
    await app.extras.scheduler.stop();
  });

  it('with TRITIUM_METRICS_TOKEN answers only the bearer of the token', async () => {
    const app = await buildOperationsApp(database, { config: { metricsToken: 'scrape-secret-1234' } });
    onTestFinished(() => app.close());
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-secret-1234' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('tritium_http_request_duration_seconds');
  });
});
