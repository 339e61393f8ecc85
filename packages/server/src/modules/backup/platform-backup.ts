import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { AppError } from '../../lib/app-error.ts';
import type { FileStore } from '../files/file-store.ts';
import { asBackupError, openBackupFile, readAll, writeBackupFile } from './backup-file.ts';
import { appliedMigrations, enginePlatformTables, json, writeEngineBackup, writeTable, type BackupProgress } from './engine-backup.ts';
import { restoreEngine, type RestoreSummary } from './engine-restore.ts';
import { BACKUP_FORMAT, damaged, FORMAT_VERSION, tableKey, type BackupHeader, type BackupManifest, type TableDefinition } from './format.ts';
import type { RestoreProgress } from './restore-loader.ts';
import { RestoreUndo } from './restore-undo.ts';
import { describeTable, insertLines, RowChecksum, safeType, useCanonicalText } from './table-rows.ts';

// The whole platform (docs/decisions/0127): a folder holding `platform.tar.gz` (the platform tables that belong to no
// one engine, and the list of engine files with their SHA-256) and one `engine-<code>.tar.gz` per engine, all written
// from one REPEATABLE READ snapshot. Restored only into an empty platform: the accounts first, then every engine, then
// the rest of the platform tables.

export const PLATFORM_FILE = 'platform.tar.gz';
const engineFileName = (code: string) => `engine-${code}.tar.gz`;

/** Platform tables a platform file leaves out: the migration ledger, caches, counters and short-lived rows (and what each engine's file holds). */
const NOT_IN_PLATFORM_FILE = new Set(['kysely_migration', 'kysely_migration_lock', 'data_changes', 'data_versions', 'context_versions', 'jobs', 'rate_limit_counters', 'access_counters', 'verify_codes', 'sign_in_flows']);

/** The platform tables a platform file holds, each after the tables its foreign keys name. */
async function platformTables(trx: Kysely<any>): Promise<string[]> {
  const withEngines = new Set((await enginePlatformTables(trx)).filter((t) => t !== 'accounts'));
  const tables = (await sql<{ t: string }>`select relname as t from pg_class where relnamespace = 'platform'::regnamespace and relkind = 'r' order by relname`.execute(trx)).rows
    .map((r) => r.t)
    .filter((t) => !NOT_IN_PLATFORM_FILE.has(t) && !withEngines.has(t));
  const refs = await sql<{ t: string; r: string }>`
    select c.relname as t, f.relname as r from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class f on f.oid = k.confrelid
    where k.contype = 'f' and k.connamespace = 'platform'::regnamespace and c.oid <> f.oid`.execute(trx);
  const ordered: string[] = [];
  const visit = (t: string, path: Set<string>) => {
    if (ordered.includes(t) || path.has(t)) return;
    path.add(t);
    for (const r of refs.rows) if (r.t === t && tables.includes(r.r)) visit(r.r, path);
    ordered.push(t);
  };
  for (const t of ['accounts', ...tables]) if (tables.includes(t)) visit(t, new Set());
  return ordered;
}

export interface PlatformBackupSummary {
  folder: string;
  engines: { engineCode: string; file: string; size: number; sha256: string; rows: number; files: number; missingFiles: number }[];
}

/** Writes every engine and the platform tables into `folder` (created; files already there are not overwritten). */
export async function backupPlatform(options: { db: Kysely<any>; store: FileStore; folder: string; onProgress?: (p: BackupProgress) => void }): Promise<PlatformBackupSummary> {
  await mkdir(options.folder, { recursive: true });
  const written: string[] = [];
  try {
    return await options.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await useCanonicalText(trx);
        const engines: PlatformBackupSummary['engines'] = [];
        const codes = (await sql<{ c: string }>`select engine_code as c from platform.engines order by engine_code`.execute(trx)).rows.map((r) => r.c);
        for (const code of codes) {
          const file = path.join(options.folder, engineFileName(code));
          const done = await writeBackupFile(file, (tar) => writeEngineBackup(trx, options.store, code, tar, options.onProgress));
          written.push(file);
          engines.push({ engineCode: code, file: engineFileName(code), size: done.size, sha256: done.sha256, rows: done.rows, files: done.files, missingFiles: done.missingFiles });
        }
        const file = path.join(options.folder, PLATFORM_FILE);
        await writeBackupFile(file, async (tar) => {
          const header: BackupHeader = {
            format: BACKUP_FORMAT,
            formatVersion: FORMAT_VERSION,
            kind: 'platform',
            createdTime: new Date().toISOString(),
            migrations: { platform: await appliedMigrations(trx, 'platform'), engine: [] },
            engineFiles: engines.map(({ engineCode, file, size, sha256 }) => ({ engineCode, file, size, sha256 })),
          };
          await tar.addBuffer('backup.json', json(header));
          const manifest: BackupManifest = { tables: {}, files: [], missingFiles: [], sequences: [] };
          for (const table of await platformTables(trx)) {
            manifest.tables[tableKey('platform', table)] = await writeTable(trx, tar, await describeTable(trx, 'platform', table, 'platform', false), 'platform', undefined);
          }
          for (const seq of (await sql<{ name: string }>`select relname as name from pg_class where relnamespace = 'platform'::regnamespace and relkind = 'S' order by 1`.execute(trx)).rows) {
            const s = await sql<{ last_value: string; is_called: boolean }>`select last_value::text as last_value, is_called from ${sql.id('platform', seq.name)}`.execute(trx);
            manifest.sequences.push({ name: seq.name, lastValue: s.rows[0]!.last_value, isCalled: s.rows[0]!.is_called });
          }
          await tar.addBuffer('manifest.json', json(manifest));
        });
        written.push(file);
        return { folder: options.folder, engines };
      });
  } catch (error) {
    for (const file of written) await rm(file, { force: true });
    throw error;
  }
}

export interface PlatformRestoreSummary {
  engines: RestoreSummary[];
  platformRows: number;
}

/** Restores a platform folder (or its platform.tar.gz) into an empty platform; on failure everything restored goes. */
export async function restorePlatform(options: { db: Kysely<any>; store: FileStore; path: string; onProgress?: (p: RestoreProgress) => void }): Promise<PlatformRestoreSummary> {
  const { db, store } = options;
  const isFolder = await stat(options.path).then((s) => s.isDirectory(), () => false);
  const platformFile = isFolder ? path.join(options.path, PLATFORM_FILE) : options.path;
  const folder = path.dirname(platformFile);
  const first = await openBackupFile(platformFile);
  first.close();
  if (first.header.kind !== 'platform') throw new AppError('BackupUnreadable');
  const used = await sql<{ used: boolean }>`select exists (select from platform.engines) or exists (select from platform.accounts) as used`.execute(db);
  if (used.rows[0]!.used) throw new AppError('RestorePlatformNotEmpty');
  const engineFiles = first.header.engineFiles ?? [];
  for (const e of engineFiles) {
    const file = path.join(folder, path.basename(e.file));
    const size = await stat(file).then((s) => s.size, () => undefined);
    if (size === undefined) throw new AppError('BackupFileMissing', { detail: { file } });
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    if (size !== e.size || hash.digest('hex') !== e.sha256) throw damaged(`${e.file} 不是与这份平台备份一同生成的文件`, `${e.file} is not the file this platform backup was made with`);
  }

  const undo = new RestoreUndo();
  try {
    // The accounts first, so that each engine finds its people as they were (ids, passwords, last engine).
    const accounts = await loadPlatformTables(db, platformFile, (table) => table === 'accounts', undo, false);
    const engines: RestoreSummary[] = [];
    for (const e of engineFiles) {
      const backup = await openBackupFile(path.join(folder, path.basename(e.file)));
      try {
        engines.push(await restoreEngine({ db, store, backup, undo, onProgress: options.onProgress }));
      } finally {
        backup.close();
      }
    }
    const platformRows = accounts + (await loadPlatformTables(db, platformFile, (table) => table !== 'accounts', undo, true));
    return { engines, platformRows };
  } catch (error) {
    await undo.run(db, store);
    throw asBackupError(error);
  }
}

/**
 * Loads the platform file's tables that `pick` names (all of them checked against the manifest), and with `sequences`
 * sets the platform's sequences as they were; answers the rows written.
 */
async function loadPlatformTables(db: Kysely<any>, file: string, pick: (table: string) => boolean, undo: RestoreUndo, sequences: boolean): Promise<number> {
  const backup = await openBackupFile(file);
  try {
    return await db.transaction().execute(async (trx) => {
      await useCanonicalText(trx);
      const tables = new Map<string, { def: TableDefinition; sum: RowChecksum }>();
      let manifest: BackupManifest | undefined;
      let written = 0;
      for await (const entry of backup.entries) {
        const text = (await readAll(entry.body)).toString('utf8');
        if (entry.name === 'manifest.json') {
          manifest = JSON.parse(text) as BackupManifest;
          break;
        }
        const m = /^platform\/([a-z0-9_]{1,63})\/(table\.json|\d{6}\.ndjson)$/.exec(entry.name);
        if (!m) throw damaged(`多出了条目 ${entry.name}`, `unexpected entry ${entry.name}`);
        const [, table, part] = m as unknown as [string, string, string];
        if (part === 'table.json') {
          const def = JSON.parse(text) as TableDefinition;
          def.columns.forEach((c) => safeType(c.type));
          tables.set(table, { def, sum: new RowChecksum() });
          continue;
        }
        const t = tables.get(table);
        if (!t) throw damaged(`${entry.name} 出现在它的 table.json 之前`, `${entry.name} comes before its table.json`);
        const lines = text.split('\n').filter((l) => l.length);
        for (const line of lines) t.sum.add(line);
        if (!pick(table)) continue;
        if (table === 'accounts') for (const line of lines) undo.accounts.push((JSON.parse(line) as string[])[t.def.columns.findIndex((c) => c.name === 'id')]!);
        // The platform's own secrets (token signing, the channels' key) are the file's: what the engines' sealed
        // secrets were sealed with. A target that generated its own at a first start has them replaced.
        if (table === 'settings') {
          const name = t.def.columns.findIndex((c) => c.name === 'name');
          await sql`delete from platform.settings where name = any(${lines.map((l) => (JSON.parse(l) as string[])[name]!)})`.execute(trx);
        }
        written += await insertLines(trx, 'platform', table, t.def.columns, lines, true);
      }
      if (!manifest) throw damaged('文件在清单（manifest.json）之前就结束了', 'the file ends before its manifest');
      for (const [key, summary] of Object.entries(manifest.tables)) {
        const t = tables.get(key.replace(/^platform\./, ''));
        if (!t || t.sum.rows !== summary.rows || t.sum.hex() !== summary.checksum) throw damaged(`${key} 的数据与清单不符`, `the rows of ${key} differ from the manifest`);
      }
      if (sequences) {
        for (const s of manifest.sequences) {
          if (!/^\d+$/.test(s.lastValue)) throw damaged(`序列 ${s.name} 的值不是数字`, `the sequence ${s.name} has no number`);
          await sql`select setval(to_regclass(${`platform.${s.name}`}), ${s.lastValue}::bigint, ${s.isCalled}) where to_regclass(${`platform.${s.name}`}) is not null`.execute(trx);
        }
      }
      return written;
    });
  } finally {
    backup.close();
  }
}
