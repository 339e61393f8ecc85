import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Readable } from 'node:stream';
import type { Db } from '../../db/types.ts';
import { pendingPlatformMigrations } from '../../db/migrate.ts';
import type { FileStore } from '../files/file-store.ts';
import { INSTANCE_ID } from '../../lib/instance-id.ts';

// Health and readiness for load balancers and orchestrators (docs/decisions/0121). /healthz says the process lives
// and answers at once; /readyz says whether it can serve: the database answers, its migrations are done and the file
// store takes a write. Both are public, unlimited and outside the access matrix's session checks.

export interface ReadinessDeps {
  db: Db;
  fileStore: FileStore;
  /** Each check's time limit (default 2 s): a hung database makes the probe fail, not hang. */
  timeoutMs?: number;
}

export interface FailedCheck {
  check: 'database' | 'migrations' | 'files';
  /** A short reason; the error itself is logged, not shown (the route is public). */
  reason: string;
}

/** Where the probe writes (a key of the store's own format; one per process, removed right after). */
const PROBE_KEY = `_ready/${INSTANCE_ID}`;

export function healthRoutes(app: FastifyInstance, deps: ReadinessDeps): void {
  const timeoutMs = deps.timeoutMs ?? 2_000;
  // Probes come every few seconds: their access log lines would drown the rest (warnings and errors still show).
  const route = { config: { access: 'public' as const }, schema: { hide: true }, logLevel: 'warn' as const };
  let migrated = false;

  app.get('/healthz', route, (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  app.get('/readyz', route, async (request, reply) => {
    const failed: FailedCheck[] = [];
    /** Runs one check under the time limit; answers whether it passed. */
    const attempt = async (check: FailedCheck['check'], run: () => Promise<string | undefined>): Promise<boolean> => {
      try {
        const reason = await withTimeout(run(), timeoutMs);
        if (reason) failed.push({ check, reason });
        return !reason;
      } catch (err) {
        request.log.warn({ err, check }, 'readiness check failed');
        failed.push({ check, reason: err instanceof TimeoutError ? 'timed out' : 'unreachable' });
        return false;
      }
    };
    await Promise.all([
      (async () => {
        const answers = await attempt('database', async () => void (await sql`select 1`.execute(deps.db)));
        // Migrations never go back while the process runs: once done, the check costs nothing more.
        if (answers && !migrated) {
          await attempt('migrations', async () => {
            const pending = await pendingPlatformMigrations(deps.db);
            migrated = !pending.length;
            return pending.length ? `${pending.length} pending` : undefined;
          });
        }
      })(),
      attempt('files', async () => {
        await deps.fileStore.put(PROBE_KEY, Readable.from([Buffer.from('ready')]), { maxBytes: 64 });
        await deps.fileStore.delete(PROBE_KEY);
        return undefined;
      }),
    ]);
    reply.header('cache-control', 'no-store');
    return failed.length ? reply.code(503).send({ status: 'unavailable', failed }) : reply.send({ status: 'ok' });
  });
}

class TimeoutError extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
