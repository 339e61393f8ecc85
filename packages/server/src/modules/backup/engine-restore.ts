import { sql, type Kysely } from 'kysely';
import { engineSchemaName } from '../../db/database.ts';
import { knownMigrations, migrateEngine, migrateEngineSchemaTo } from '../../db/migrate.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FileStore } from '../files/file-store.ts';
import { asBackupError, type OpenedBackup } from './backup-file.ts';
import { damaged } from './format.ts';
import { RestoreLoader, type RestoreProgress } from './restore-loader.ts';
import { useCanonicalText } from './table-rows.ts';
import { RestoreUndo } from './restore-undo.ts';

// Restoring one engine's file (docs/decisions/0127): into a platform that lacks its code, under its own code or a new
// one (`as`). The schema is created by the engine migrations up to the file's level, filled in one transaction with
// the engine's platform rows, and then migrated forward like any engine at start-up. Whatever fails, nothing stays:
// the schema is dropped, the platform rows are rolled back or removed, the uploaded files deleted.

export interface RestoreSummary {
  engineCode: string;
  from: string;
  tables: number;
  rows: number;
  files: number;
  /** Platform rows left out because the target already has them (short links, invitation links of the original). */
  skippedPlatformRows: number;
}

export interface RestoreEngineOptions {
  db: Kysely<any>;
  store: FileStore;
  backup: OpenedBackup;
  /** A new engine code for the copy; the file's own code when absent. */
  as?: string;
  onProgress?: (p: RestoreProgress) => void;
  /** A whole platform's restore: the accounts are already there, and its own undo takes this one's back on failure. */
  undo?: RestoreUndo;
}

export async function restoreEngine(options: RestoreEngineOptions): Promise<RestoreSummary> {
  const { db, store, backup } = options;
  const header = backup.header;
  if (header.kind !== 'engine' || !header.engineCode) throw new AppError('BackupUnreadable');
  const from = header.engineCode;
  const engineCode = options.as ?? from;
  if (!/^[a-z0-9]{4,32}$/.test(engineCode)) throw new AppError('RestoreEngineCodeInvalid', { detail: { engineCode } });
  const schema = engineSchemaName(engineCode);
  const taken = await sql<{ taken: boolean }>`
    select exists (select from platform.engines where engine_code = ${engineCode}) or exists (select from pg_namespace where nspname = ${schema}) as taken`.execute(db);
  if (taken.rows[0]!.taken) throw new AppError('RestoreEngineExists', { detail: { engineCode } });
  const level = header.migrations.engine.at(-1);
  if (!level) throw damaged('backup.json 没有记录组织的迁移', 'backup.json names no engine migration');

  const undo = options.undo ?? new RestoreUndo();
  try {
    undo.schemas.push(schema);
    // At this platform's level the schema is made as a new engine's is (a spare one taken when ready, decision 0069).
    if (level === knownMigrations().engine.at(-1)) await migrateEngine(db, engineCode);
    else await migrateEngineSchemaTo(db, schema, level);
    let loaded: Awaited<ReturnType<RestoreLoader['finish']>> | undefined;
    let state = 'normal';
    await db.transaction().execute(async (trx) => {
      await useCanonicalText(trx);
      const loader = new RestoreLoader(trx, store, { from, to: engineCode, schema, undo, onProgress: options.onProgress });
      await loader.prepare();
      for await (const entry of backup.entries) {
        if (await loader.take(entry)) break;
      }
      loaded = await loader.finish();
      state = loaded.state;
    });
    undo.engineCodes.push(engineCode);
    // An engine from an older platform gets the migrations it lacks, as every engine does at start-up.
    await migrateEngine(db, engineCode);
    await sql`update platform.engines set state = ${state} where engine_code = ${engineCode}`.execute(db);
    return { engineCode, from, tables: loaded!.tables, rows: loaded!.rows, files: loaded!.files, skippedPlatformRows: loaded!.skipped };
  } catch (error) {
    if (!options.undo) await undo.run(db, store);
    throw asBackupError(error);
  }
}
