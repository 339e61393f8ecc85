import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { engineSchemaName } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FileStore } from '../files/file-store.ts';
import { BACKUP_FORMAT, FORMAT_VERSION, tableKey, type BackupHeader, type BackupManifest, type TableDefinition, type TableSummary } from './format.ts';
import { describeTable, readLines, RowChecksum } from './table-rows.ts';
import type { TarWriter } from './tar.ts';

// One engine to a backup file (docs/decisions/0127): inside the caller's REPEATABLE READ transaction, so every table,
// the engine's platform rows and the list of files come from one snapshot. The files' bytes are read from the store
// as the list names them.

/**
 * Platform tables with an engine_code column that an engine's file leaves out: work in progress, cache versions, logs
 * and short-lived sign-in and signing links. Every other such table goes with the engine (found by its column, so a
 * table added later comes along).
 */
export const NOT_WITH_ENGINE: ReadonlySet<string> = new Set(['jobs', 'context_versions', 'sign_in_flows', 'sign_links', 'error_logs']);

/** The platform tables that hold an engine's rows, in the order they are written back: accounts, engines, the rest. */
export async function enginePlatformTables(trx: Kysely<any>): Promise<string[]> {
  const found = await sql<{ t: string }>`
    select distinct c.relname as t from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.relnamespace = 'platform'::regnamespace and c.relkind = 'r' and a.attname = 'engine_code' and not a.attisdropped order by 1`.execute(trx);
  return ['accounts', 'engines', ...found.rows.map((r) => r.t).filter((t) => t !== 'engines' && !NOT_WITH_ENGINE.has(t))];
}

/** The rows of a platform table that belong to one engine (its members' accounts; elsewhere its engine_code). */
export function engineRowsOf(table: string, engineCode: string): ReturnType<typeof sql> {
  if (table === 'accounts') return sql`id in (select account_id from platform.memberships where engine_code = ${sql.lit(engineCode)})`;
  return sql`engine_code = ${sql.lit(engineCode)}`;
}

/** The names in a schema's migration ledger. */
export async function appliedMigrations(trx: Kysely<any>, schema: string): Promise<string[]> {
  return (await sql<{ name: string }>`select name from ${sql.id(schema, 'kysely_migration')} order by name`.execute(trx)).rows.map((r) => r.name);
}

/** Tables of an engine schema a backup leaves out: the migration ledger and the reports' pre-aggregations (rebuilt when read). */
const SKIPPED = (table: string) => table === 'kysely_migration' || table === 'kysely_migration_lock' || table.endsWith('__agg');

/** Rows go into entries of at most this many bytes (what one entry holds in memory while it is written). */
const CHUNK_BYTES = 4 * 1024 * 1024;

export interface BackupProgress {
  engineCode: string;
  phase: 'tables' | 'files' | 'done';
  table?: string;
  rows: number;
  files: number;
  filesTotal: number;
  bytes: number;
}

export interface EngineBackupSummary {
  engineCode: string;
  tables: number;
  rows: number;
  files: number;
  fileBytes: number;
  missingFiles: number;
}

export const json = (value: unknown) => Buffer.from(JSON.stringify(value, null, 1));

/** One table's definition and rows into `tar` (entries of at most CHUNK_BYTES), answering its count and checksum. */
export async function writeTable(trx: Kysely<any>, tar: TarWriter, definition: TableDefinition, dbSchema: string, where: ReturnType<typeof sql> | undefined, onRows?: (n: number) => void): Promise<TableSummary> {
  const prefix = `${definition.schema}/${definition.table}`;
  await tar.addBuffer(`${prefix}/table.json`, json(definition));
  const sum = new RowChecksum();
  let chunk: string[] = [];
  let chunkBytes = 0;
  let chunkNo = 0;
  const flush = async () => {
    if (!chunk.length) return;
    chunkNo += 1;
    await tar.addBuffer(`${prefix}/${String(chunkNo).padStart(6, '0')}.ndjson`, Buffer.from(`${chunk.join('\n')}\n`));
    chunk = [];
    chunkBytes = 0;
  };
  await readLines(trx, dbSchema, definition.table, definition.columns, where, async (lines) => {
    for (const line of lines) {
      sum.add(line);
      chunk.push(line);
      chunkBytes += Buffer.byteLength(line) + 1;
      if (chunkBytes >= CHUNK_BYTES) await flush();
    }
    onRows?.(lines.length);
  });
  await flush();
  return { rows: sum.rows, checksum: sum.hex() };
}

/** Writes one engine to `tar`. `trx` is a REPEATABLE READ transaction with canonical text output (useCanonicalText). */
export async function writeEngineBackup(trx: Kysely<any>, store: FileStore, engineCode: string, tar: TarWriter, onProgress?: (p: BackupProgress) => void): Promise<EngineBackupSummary> {
  if (!/^[a-z0-9]{4,32}$/.test(engineCode)) throw new AppError('BackupEngineNotFound', { detail: { engineCode } });
  const engine = await sql<{ engine_code: string }>`select engine_code from platform.engines where engine_code = ${engineCode}`.execute(trx);
  if (!engine.rows.length) throw new AppError('BackupEngineNotFound', { detail: { engineCode } });
  const schema = engineSchemaName(engineCode);
  const progress: BackupProgress = { engineCode, phase: 'tables', rows: 0, files: 0, filesTotal: 0, bytes: 0 };
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    formatVersion: FORMAT_VERSION,
    kind: 'engine',
    engineCode,
    createdTime: new Date().toISOString(),
    migrations: { platform: await appliedMigrations(trx, 'platform'), engine: await appliedMigrations(trx, schema) },
  };
  await tar.addBuffer('backup.json', json(header));
  const manifest: BackupManifest = { tables: {}, files: [], missingFiles: [], sequences: [] };

  const dumpTable = async (definition: TableDefinition, dbSchema: string, where?: ReturnType<typeof sql>) => {
    progress.table = definition.table;
    manifest.tables[tableKey(definition.schema, definition.table)] = await writeTable(trx, tar, definition, dbSchema, where, (n) => {
      progress.rows += n;
      onProgress?.(progress);
    });
  };

  for (const table of await enginePlatformTables(trx)) {
    await dumpTable(await describeTable(trx, 'platform', table, 'platform', false), 'platform', engineRowsOf(table, engineCode));
  }
  const forms = new Set((await sql<{ t: string }>`select table_name as t from ${sql.id(schema, 'form_tables')}`.execute(trx)).rows.map((r) => r.t));
  const tables = await sql<{ t: string }>`select relname as t from pg_class where relnamespace = ${schema}::regnamespace and relkind in ('r', 'p') order by relname`.execute(trx);
  for (const { t } of tables.rows) {
    if (SKIPPED(t)) continue;
    await dumpTable(await describeTable(trx, schema, t, 'engine', forms.has(t)), schema);
  }
  const sequences = await sql<{ name: string }>`select relname as name from pg_class where relnamespace = ${schema}::regnamespace and relkind = 'S' order by relname`.execute(trx);
  for (const { name } of sequences.rows) {
    const s = await sql<{ last_value: string; is_called: boolean }>`select last_value::text as last_value, is_called from ${sql.id(schema, name)}`.execute(trx);
    manifest.sequences.push({ name, lastValue: s.rows[0]!.last_value, isCalled: s.rows[0]!.is_called });
  }

  progress.phase = 'files';
  progress.table = undefined;
  progress.filesTotal = (await sql<{ n: number }>`select count(*)::int as n from ${sql.id(schema, 'files')}`.execute(trx)).rows[0]!.n;
  onProgress?.(progress);
  let fileBytes = 0;
  const list = `backup_files_${Math.random().toString(36).slice(2, 10)}`;
  await sql`declare ${sql.id(list)} no scroll cursor for select id::text as id, storage_key from ${sql.id(schema, 'files')} order by id`.execute(trx);
  try {
    for (;;) {
      const batch = await sql<{ id: string; storage_key: string }>`fetch forward 100 from ${sql.id(list)}`.execute(trx);
      if (!batch.rows.length) break;
      for (const row of batch.rows) {
        const size = await store.size(row.storage_key);
        const body = size === undefined ? undefined : await store.get(row.storage_key);
        if (size === undefined || !body) {
          manifest.missingFiles.push({ id: row.id, storageKey: row.storage_key });
        } else {
          const hash = createHash('sha256');
          await tar.addStream(`files/${row.id}`, size, body, (chunk) => hash.update(chunk));
          manifest.files.push({ id: row.id, storageKey: row.storage_key, size, sha256: hash.digest('hex') });
          fileBytes += size;
        }
        progress.files += 1;
        progress.bytes = fileBytes;
        onProgress?.(progress);
      }
    }
  } finally {
    await sql`close ${sql.id(list)}`.execute(trx);
  }
  await tar.addBuffer('manifest.json', json(manifest));
  progress.phase = 'done';
  onProgress?.(progress);
  const engineTables = Object.keys(manifest.tables).filter((k) => k.startsWith('engine.'));
  return {
    engineCode,
    tables: engineTables.length,
    rows: engineTables.reduce((n, k) => n + manifest.tables[k]!.rows, 0),
    files: manifest.files.length,
    fileBytes,
    missingFiles: manifest.missingFiles.length,
  };
}
