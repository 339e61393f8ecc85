import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateAllEngines, migratePlatform } from './db/migrate.ts';
import { DataDirLockedError, lockDataDir } from './lib/data-lock.ts';
import { buildApp } from './app.ts';
import { purgeExpiredRevocations } from './modules/auth/token.service.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const config = loadConfig();
  config.webDist ??= path.resolve(here, '../../web/dist');
  let lock: { release(): void } | undefined;
  if (!config.databaseUrl) {
    try {
      lock = lockDataDir(config.dataDir);
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
    onPoolError: (error) => console.warn(`PostgreSQL connection lost: ${error.message}`),
  });
  await migratePlatform(database.db);
  await migrateAllEngines(database.db);
  await purgeExpiredRevocations(database.db);
  const app = await buildApp({ config, db: database.db });
  const purge = setInterval(() => purgeExpiredRevocations(database.db).catch((err) => app.log.warn({ err }, 'purge failed')), 3600_000);
  purge.unref();
  // Background jobs in this process (architecture.md §4); the runner sweeps expired leases to Timeout first.
  if (config.workerMode === 'on') {
    await app.extras.jobs.sweep();
    app.extras.jobs.start();
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    await app.close();
    await database.close();
    lock?.release();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Tritium 已启动: http://${config.host}:${config.port}/ (${database.kind === 'pglite' ? `PGlite ${config.dataDir}` : 'PostgreSQL'})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
