import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../db/types.ts';
import type { PoolStats } from '../../db/database.ts';
import { sandboxPoolStats } from '../script/sandbox.ts';

// Prometheus metrics at /metrics (docs/decisions/0121). A request costs one histogram observation; everything else is
// read when Prometheus scrapes: the job queue in one statement, the pool, the scheduler, live push and the script
// sandbox from memory.

export interface MetricsOptions {
  /** TRITIUM_METRICS=on: served to anyone who reaches the port (keep it off the public proxy). */
  enabled: boolean;
  /** TRITIUM_METRICS_TOKEN: served to `Authorization: Bearer <token>` only (and then whatever `enabled` says). */
  token?: string;
  db: Db;
  poolStats?: () => PoolStats;
  /** When the scheduler's last tick ended (undefined while this process runs none). */
  schedulerLastTick: () => number | undefined;
  liveConnections: () => number;
  log: { warn(obj: object, msg: string): void };
}

/** The process's own figures (CPU, memory, event loop, handles): one set per process, shared by every app built in it. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function registerMetrics(app: FastifyInstance, options: MetricsOptions): void {
  const served = options.enabled || !!options.token;
  const route = { config: { access: 'public' as const }, schema: { hide: true }, logLevel: 'warn' as const };
  if (!served) {
    // The route exists either way (the access matrix lists it); switched off it is not there for callers.
    app.get('/metrics', route, (_request, reply) => reply.callNotFound());
    return;
  }
  const own = new Registry();
  const requests = new Histogram({
    name: 'tritium_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [own],
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The pattern (`/v1/form/:schemaCode`), never the URL: one series per route, whatever the ids.
    requests.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status_class: `${Math.floor(reply.statusCode / 100)}xx` }, reply.elapsedTime / 1000);
    done();
  });

  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Gauge<L>({ name, help, labelNames, registers: [own] });
  const jobsQueued = gauge('tritium_jobs_queued', 'Jobs waiting to be claimed, by kind', ['kind']);
  const jobsRunning = gauge('tritium_jobs_running', 'Jobs running, by kind', ['kind']);
  const jobsOldest = gauge('tritium_jobs_oldest_queued_seconds', 'How long the oldest due waiting job has waited, by kind', ['kind']);
  const schedulerLag = gauge('tritium_scheduler_lag_seconds', "Seconds since the scheduler's last tick ended (0 while this process runs none)");
  const schedulerRunning = gauge('tritium_scheduler_running', 'Whether the scheduler runs in this process and has ticked (1) or not (0: WORKER_MODE=off, or before its first tick)');
  const live = gauge('tritium_live_connections', 'Browsers connected to this process by server-sent events');
  const sandbox = gauge('tritium_script_sandbox', 'The script sandbox pool: worker threads, busy ones, runs waiting', ['state']);
  const pool = options.poolStats ? gauge('tritium_db_pool_connections', 'PostgreSQL pool connections, open and idle', ['state']) : undefined;
  const poolWaiting = options.poolStats ? gauge('tritium_db_pool_waiting', 'Queries waiting for a PostgreSQL pool connection') : undefined;
  const registry = Registry.merge([processMetrics(), own]);

  async function readJobs(): Promise<void> {
    // One statement over the Waiting and Running rows (both have a partial index); a delayed retry counts as queued but
    // its age counts from when it fell due.
    const { rows } = await sql<{ kind: string; queued: number; running: number; oldest: number | null }>`
      select kind, count(*) filter (where state = 'Waiting')::int as queued, count(*) filter (where state = 'Running')::int as running,
        extract(epoch from now() - min(run_after) filter (where state = 'Waiting' and run_after <= now()))::float8 as oldest
      from platform.jobs where state in ('Waiting', 'Running') group by kind`.execute(options.db);
    jobsQueued.reset();
    jobsRunning.reset();
    jobsOldest.reset();
    for (const row of rows) {
      jobsQueued.set({ kind: row.kind }, row.queued);
      jobsRunning.set({ kind: row.kind }, row.running);
      jobsOldest.set({ kind: row.kind }, Math.max(0, row.oldest ?? 0));
    }
  }

  async function scrape(): Promise<string> {
    await readJobs().catch((err) => options.log.warn({ err }, 'metrics: job queue not read'));
    const last = options.schedulerLastTick();
    schedulerRunning.set(last === undefined ? 0 : 1);
    schedulerLag.set(last === undefined ? 0 : Math.max(0, (Date.now() - last) / 1000));
    live.set(options.liveConnections());
    const scripts = sandboxPoolStats();
    sandbox.set({ state: 'workers' }, scripts.workers);
    sandbox.set({ state: 'busy' }, scripts.busy);
    sandbox.set({ state: 'queued' }, scripts.queued);
    if (options.poolStats) {
      const figures = options.poolStats();
      pool!.set({ state: 'total' }, figures.total);
      pool!.set({ state: 'idle' }, figures.idle);
      poolWaiting!.set(figures.waiting);
    }
    return registry.metrics();
  }

  app.get('/metrics', route, async (request: FastifyRequest, reply: FastifyReply) => {
    if (options.token && !bearerMatches(request.headers.authorization, options.token)) {
      return reply.code(401).header('www-authenticate', 'Bearer').type('text/plain; charset=utf-8').send('unauthorized\n');
    }
    const body = await scrape();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(body);
  });
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7).trim() : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
