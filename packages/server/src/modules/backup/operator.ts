import path from 'node:path';
import { errorText } from '@tritium/shared';
import { openDatabase, type Database } from '../../db/database.ts';
import { migratePlatform } from '../../db/migrate.ts';
import { AppError } from '../../lib/app-error.ts';
import { DataDirLockedError, lockDataDir } from '../../lib/data-lock.ts';
import { createLocalFileStore, type FileStore } from '../files/file-store.ts';
import { createS3FileStore, type S3Settings } from '../files/file-store-s3.ts';
import type { BackupProgress } from './engine-backup.ts';
import type { RestoreProgress } from './restore-loader.ts';

// What the backup and restore commands share (src/backup.ts, src/restore.ts; docs/deploy.md "Backups"): the
// installation's database and file store as the server opens them. On the embedded database the data folder's lock
// is taken first (docs/decisions/0116), so a command refuses to run while the server does.

export interface Installation {
  database: Database;
  store: FileStore;
  close(): Promise<void>;
}

/** The settings a command needs (the server's AppConfig has them). */
export interface InstallationSettings {
  dataDir: string;
  databaseUrl?: string;
  pgliteSharedBuffers?: string;
  fileStore: 'folder' | 's3';
  s3: S3Settings;
}

export async function openInstallation(config: InstallationSettings, options: { migrate: boolean }): Promise<Installation> {
  const lock = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);
  try {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDataDir: path.join(config.dataDir, 'pglite'), pgliteSharedBuffers: config.pgliteSharedBuffers });
    // A restore into a fresh data folder or database needs the platform's tables first.
    if (options.migrate) await migratePlatform(database.db);
    const store = config.fileStore === 's3' ? createS3FileStore(config.s3) : createLocalFileStore(path.join(config.dataDir, 'files'));
    return {
      database,
      store,
      close: async () => {
        await store.close?.();
        await database.close();
        lock?.release();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/** A progress line at most every two seconds, and at the end of each phase. */
export function progressPrinter(print: (line: string) => void = console.log): (p: BackupProgress | RestoreProgress) => void {
  let last = 0;
  let lastPhase = '';
  return (p) => {
    const now = Date.now();
    if (now - last < 2000 && p.phase === lastPhase) return;
    last = now;
    lastPhase = p.phase;
    const mb = (p.bytes / 1024 / 1024).toFixed(1);
    const files = 'filesTotal' in p ? `${p.files}/${p.filesTotal}` : String(p.files);
    print(`${p.engineCode}: ${p.phase}${p.table ? ` (${p.table})` : ''} — ${p.rows} rows, ${files} files, ${mb} MB`);
  };
}

/** Ends a command: a catalogue error or a refused lock is printed (zh-CN, then en-US) and the exit code is 1. */
export function reportFailure(error: unknown): void {
  if (error instanceof AppError) {
    const detail = error.detail && typeof error.detail === 'object' ? (error.detail as Record<string, unknown>) : undefined;
    console.error(`${error.code} ${error.message}\n${error.code} ${errorText(error.errorName, 'en-US', detail)}`);
  } else if (error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
}
