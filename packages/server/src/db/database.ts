import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import { SerializedPGliteDialect } from './pglite-serialized-dialect.ts';
import { PGlite } from '@electric-sql/pglite';
import { openDedicatedConnection, type DedicatedConnection } from './dedicated-connection.ts';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { EngineDb, PlatformDb } from './types.ts';
import { isDatabaseUnavailable } from './unavailable.ts';
import { preparePgliteFolder } from './pglite-folder.ts';
import { CommitPipelining, pipelineTransactions } from './pipelined-transaction.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * Hears NOTIFY on one channel (every server process sharing the database). `onGap` is told when the LISTEN was lost
 * and is back (PostgreSQL): what was sent meanwhile was not heard.
 */
export type Listen = (channel: string, onPayload: (payload: string) => void, onGap?: () => void) => Promise<Listening>;

export interface Listening {
  /** Resolves once the LISTEN is in place (PostgreSQL connects it in the background; docs/decisions/0027). */
  ready(): Promise<void>;
  stop(): Promise<void>;
}

export interface Database {
  db: Kysely<PlatformDb>;
  kind: DatabaseKind;
  /** LISTEN on a connection of its own (PostgreSQL) or on the embedded database (PGlite). */
  listen: Listen;
  close(): Promise<void>;
  /** The connection pool's figures (PostgreSQL only; PGlite has one connection and no pool): for the metrics. */
  poolStats?: () => PoolStats;
}

export interface PoolStats {
  /** Connections open, idle among them, and queries waiting for one. */
  total: number;
  idle: number;
  waiting: number;
}

// Return dates and bigints in the shapes the code expects on both drivers.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * Opens PostgreSQL when a URL is given, otherwise PGlite (in memory when dataDir is undefined).
 * `onPoolError` hears of connections the server closed (restart, failover): they are dropped and the next query
 * opens a fresh one. `connectTimeoutMs` bounds the wait for a connection, so that requests during an outage
 * answer 503 quickly instead of hanging (docs/decisions/0027).
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  pgliteDataDir?: string;
  pglite?: PGlite;
  /** PGlite's buffer cache (e.g. '32MB'); unset keeps PostgreSQL's default. */
  pgliteSharedBuffers?: string;
  onPoolError?: (error: Error) => void;
  connectTimeoutMs?: number;
  /** Called once per statement executed through Kysely (tests count the statements of a request with it; benches time them). */
  onQuery?: (sql: string, ms: number) => void;
}): Promise<Database> {
  const onQuery = options.onQuery;
  const log = onQuery ? (event: LogEvent) => onQuery(event.query.sql, event.queryDurationMillis) : undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      // Notices a server that vanished without closing the socket (failover, network) instead of waiting forever.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // The same error can reach both listeners below: report it once.
    const reported = new WeakSet<Error>();
    const report = (error: Error) => {
      if (reported.has(error)) return;
      reported.add(error);
      options.onPoolError?.(error);
    };
    // An idle client whose server went away emits 'error' on the pool. A client that is checked out (a request in a
    // transaction, a job) emits it on itself, where the pool listens no more: unheard, that ends the process. Every
    // client gets a listener of its own; the failed query answers its caller and the pool drops the broken client
    // when it is released.
    pool.on('error', report);
    pool.on('connect', (client) => {
      client.on('error', report);
      pipelineTransactions(client);
      markLostConnections(client);
    });
    // A client whose query failed because its connection is gone goes back to the pool before the socket's end is
    // processed, and the pool would hand it to the next query: end it on release, so the pool opens a fresh one.
    pool.on('release', (_error: Error | undefined, client: pg.PoolClient) => {
      if (lostClients.has(client)) void client.end().catch(() => undefined);
    });
    const db = new Kysely<PlatformDb>({ dialect: new PostgresDialect({ pool }), log, plugins: [new CommitPipelining()] });
    const listeners = new Set<DedicatedConnection>();
    const listen: Listen = async (channel, onPayload, onGap) => {
      const connection = openDedicatedConnection({
        connectionString: options.databaseUrl!,
        name: `tritium-listen-${channel}`,
        setup: async (client) => void (await client.query(`LISTEN ${pgIdentifier(channel)}`)),
        onNotification: (message) => message.channel === channel && onPayload(message.payload ?? ''),
        ...(onGap ? { onReconnect: onGap } : {}),
      });
      listeners.add(connection);
      // Not awaited: a server starts while its database is away (docs/decisions/0027); the LISTEN follows when the
      // connection comes up, and the connection sets it again after every reconnect.
      void connection.ready().catch(() => undefined);
      return {
        ready: () => connection.ready(),
        async stop() {
          listeners.delete(connection);
          await connection.close();
        },
      };
    };
    return {
      db,
      kind: 'postgres',
      listen,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: async () => {
        await Promise.all([...listeners].map((l) => l.close()));
        await db.destroy();
      },
    };
  }
  if (!options.pglite && options.pgliteDataDir) await preparePgliteFolder(options.pgliteDataDir);
  // pg_trgm serves "contains" filters through trigram indexes (docs/decisions/0013); PGlite loads it at creation.
  const pglite = options.pglite ?? (await PGlite.create({ ...(options.pgliteDataDir ? { dataDir: options.pgliteDataDir } : {}), ...pgliteMemory(options.pgliteSharedBuffers), extensions: { pg_trgm } }));
  const db = new Kysely<PlatformDb>({ dialect: new SerializedPGliteDialect({ pglite }), log });
  const listen: Listen = async (channel, onPayload) => {
    const stop = await pglite.listen(pgIdentifier(channel), onPayload);
    return {
      ready: () => Promise.resolve(),
      async stop() {
        if (!pglite.closed) await stop();
      },
    };
  };
  return {
    db,
    kind: 'pglite',
    listen,
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * PGlite's WebAssembly memory grows to the most it ever held and never gives it back: the buffer cache and an index
 * build's working memory set that peak (docs/decisions/0102). The files underneath sit in the operating system's
 * cache anyway, so a smaller buffer cache costs copies, not disk reads.
 */
export function pgliteMemory(sharedBuffers: string | undefined): { startParams?: string[] } {
  if (!sharedBuffers) return {};
  return { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`, '-c', 'maintenance_work_mem=16MB'] };
}

const lostClients = new WeakSet<pg.ClientBase>();

/** Notes a client as lost when one of its queries fails for want of a connection (see the pool's 'release'). */
function markLostConnections(client: pg.ClientBase): void {
  const query = client.query as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = function (this: unknown, ...args: unknown[]) {
    const result = query.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(undefined, (error) => {
        if (isDatabaseUnavailable(error)) lostClients.add(client);
      });
    }
    return result;
  };
}

function pgIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid channel name ${name}`);
  return name;
}

/** The schema that holds one engine's data (architecture.md §2). */
export function engineSchemaName(engineCode: string): string {
  if (!/^[a-z0-9]{4,32}$/.test(engineCode)) throw new Error(`invalid engine code ${engineCode}`);
  return `e_${engineCode}`;
}

/** Queries scoped to one engine's schema. */
export function engineDb(db: Kysely<PlatformDb>, engineCode: string): Kysely<EngineDb> {
  return db.withSchema(engineSchemaName(engineCode)) as unknown as Kysely<EngineDb>;
}
