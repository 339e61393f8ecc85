import type { Kysely } from 'kysely';
import type { FileStore } from '../files/file-store.ts';
import { openBackupFile, writeBackupFile, type WrittenFile } from './backup-file.ts';
import { writeEngineBackup, type BackupProgress, type EngineBackupSummary } from './engine-backup.ts';
import { restoreEngine, type RestoreSummary } from './engine-restore.ts';
import type { RestoreProgress } from './restore-loader.ts';
import { useCanonicalText } from './table-rows.ts';

// One engine's backup and restore as an operator calls them (the CLI, src/backup.ts and src/restore.ts; decision 0127).

/** Writes one engine to `file` from one REPEATABLE READ snapshot. */
export async function backupEngine(options: { db: Kysely<any>; store: FileStore; engineCode: string; file: string; onProgress?: (p: BackupProgress) => void }): Promise<EngineBackupSummary & WrittenFile> {
  return options.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      await useCanonicalText(trx);
      return writeBackupFile(options.file, (tar) => writeEngineBackup(trx, options.store, options.engineCode, tar, options.onProgress));
    });
}

/** Restores one engine's file under its own code or `as`. */
export async function restoreEngineFile(options: { db: Kysely<any>; store: FileStore; file: string; as?: string; onProgress?: (p: RestoreProgress) => void }): Promise<RestoreSummary> {
  const backup = await openBackupFile(options.file);
  try {
    return await restoreEngine({ db: options.db, store: options.store, backup, as: options.as, onProgress: options.onProgress });
  } finally {
    backup.close();
  }
}
