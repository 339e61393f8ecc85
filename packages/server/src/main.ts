import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateAllEngines, migratePlatform } from './db/migrate.ts';
import { DataDirLockedError, lockDataDir } from './lib/data-lock.ts';
import { queueTrigramBackfill } from './modules/form-design/trigram-backfill.job.ts';
import { queueUuidIdsMigration } from './modules/form-design/uuid-ids.job.ts';
import { buildApp } from './app.ts';
import { purgeExpiredRevocations } from './modules/auth/token.service.ts';
import { purgeSignInFlows } from './modules/integrations/sso.service.ts';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import { purgeStaleAccessCounters } from './modules/auth/access-counter.ts';
import { purgeEndedRateLimitCounters } from './modules/operations/rate-limit-store.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const config = loadConfig();
  config.webDist ??= path.resolve(here, '../../web/dist');
  let lock: { release(): void } | undefined;
  if (!config.databaseUrl) {
    try {
      lock = await lockDataDir(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirLockedError) {
        console.error(error.message);
        process.exit(1);
      }
      throw error;
    }
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDataDir: path.join(config.dataDir, 'pglite'),
    pgliteSharedBuffers: config.pgliteSharedBuffers,
    onPoolError: (error) => console.warn(`PostgreSQL connection lost: ${error.message}`),
  });
  // A server started while its database restarts waits for it (up to a minute) instead of giving up.
  await whenDatabaseAnswers(() => migratePlatform(database.db));
  await whenDatabaseAnswers(() => migrateAllEngines(database.db));
  await whenDatabaseAnswers(() => purgeExpiredRevocations(database.db));
  const app = await buildApp({ config, db: database.db, listen: database.listen, database });
  const purge = setInterval(() => {
    purgeExpiredRevocations(database.db).catch((err) => app.log.warn({ err }, 'purge failed'));
    purgeStaleAccessCounters(database.db).catch((err) => app.log.warn({ err }, 'purge failed'));
    purgeEndedRateLimitCounters(database.db).catch((err) => app.log.warn({ err }, 'purge failed'));
    purgeSignInFlows(database.db).catch((err) => app.log.warn({ err }, 'purge failed'));
  }, 3600_000);
  purge.unref();
  // Background jobs in this process (architecture.md §4); the runner sweeps expired leases to Timeout first.
  if (config.workerMode === 'on') {
    await app.extras.jobs.sweep();
    // Forms published before full-text search get its indexes once, in the background (docs/decisions/0040).
    await queueTrigramBackfill(database.db).catch((err) => app.log.warn({ err }, 'search index backfill not queued'));
    // Form tables made before decision 0128 get uuid id columns, one table a transaction, resumed after a kill.
    await queueUuidIdsMigration(database.db).catch((err) => app.log.warn({ err }, 'uuid id migration not queued'));
    app.extras.jobs.start();
    // What fell due while no process ran is found by the first tick (timed automations, workflow time limits).
    app.extras.scheduler.start();
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    // Requests in flight finish; a keep-alive connection is closed as soon as it is idle — also one whose last answer
    // was still being written when the stop began (Fastify closes idle connections once, at the start, and the
    // others would wait for their keep-alive timeout of 72 s).
    const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    await app.close();
    clearInterval(closeIdle);
    await database.close();
    lock?.release();
    process.exit(0);
  };
  // A database error that nobody awaited (a stray promise or event during a restart) is logged and the server goes
  // on: the database comes back and the pool reconnects. Anything else still ends the process, as Node would.
  const onStray = (kind: string) => (error: unknown) => {
    if (isDatabaseUnavailable(error)) {
      app.log.warn({ err: error }, `${kind}: database unavailable`);
      return;
    }
    app.log.fatal({ err: error }, kind);
    console.error(error);
    process.exit(1);
  };
  process.on('unhandledRejection', onStray('unhandled rejection'));
  process.on('uncaughtException', onStray('uncaught exception'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Tritium 已启动: http://${config.host}:${config.port}/ (${database.kind === 'pglite' ? `PGlite ${config.dataDir}` : 'PostgreSQL'})`);
}

/** Runs a start-up step again while the database cannot be reached, for up to a minute. */
async function whenDatabaseAnswers<T>(step: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (let pause = 200; ; pause = Math.min(pause * 2, 5_000)) {
    try {
      return await step();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() > deadline) throw error;
      console.warn(`数据库暂不可用，稍后重试 / database unavailable, retrying: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
