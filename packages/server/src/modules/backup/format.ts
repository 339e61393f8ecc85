import { AppError } from '../../lib/app-error.ts';
import { knownMigrations } from '../../db/migrate.ts';

// What a backup file holds (docs/decisions/0127, docs/deploy.md "Backups"). A gzip-compressed tar whose entries
// come in this order:
//   backup.json                         BackupHeader: format, kind, engine, time, the migrations applied
//   platform/<table>/table.json         TableDefinition of one of the engine's platform tables
//   platform/<table>/000001.ndjson …    its rows, one JSON array of column texts per line
//   engine/<table>/table.json           TableDefinition of one table of the engine's schema
//   engine/<table>/000001.ndjson …      its rows
//   files/<file id>                     the bytes of each file the engine's `files` table names
//   manifest.json                       BackupManifest: row counts, checksums, files, sequences
// A platform file (`backup --all`) holds the same with kind 'platform', the platform tables only and no files.

export const BACKUP_FORMAT = 'tritium-backup';
export const FORMAT_VERSION = 1;

export type BackupKind = 'engine' | 'platform';

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  kind: BackupKind;
  /** The engine's code (kind 'engine'). */
  engineCode?: string;
  createdTime: string;
  /** The migrations applied when the backup was made: the platform's, and the engine schema's (kind 'engine'). */
  migrations: { platform: string[]; engine: string[] };
  /** A platform file: the engine files made with it, by engine code (file name and SHA-256 of the whole file). */
  engineFiles?: { engineCode: string; file: string; size: number; sha256: string }[];
}

export interface ColumnDefinition {
  name: string;
  /** PostgreSQL's format_type, e.g. `character varying(200)`, `timestamp with time zone`, `text[]`. */
  type: string;
  notNull: boolean;
  default?: string;
}

export interface TableDefinition {
  schema: 'platform' | 'engine';
  table: string;
  /** Columns in the order of each row's array: by name, generated columns left out (they are computed again). */
  columns: ColumnDefinition[];
  /** A form's table (created by publishing, not by a migration): the rest of its definition to create it again. */
  form?: {
    /** Every column in table order, generated ones with their expression. */
    columns: (ColumnDefinition & { generated?: string })[];
    /** Constraints (primary key, checks, unique, foreign keys) as pg_get_constraintdef gives them. */
    constraints: { name: string; definition: string; foreignKey: boolean }[];
    /** Indexes that back no constraint, as pg_get_indexdef gives them (the schema name as it was). */
    indexes: string[];
  };
}

export interface TableSummary {
  rows: number;
  /** Sum modulo 2^256 of the SHA-256 of every row's line: the same whatever the order of the rows. */
  checksum: string;
}

export interface FileSummary {
  id: string;
  storageKey: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  tables: Record<string, TableSummary>;
  files: FileSummary[];
  /** Files the `files` table names that the store did not have when the backup was made. */
  missingFiles: { id: string; storageKey: string }[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
}

export const tableKey = (schema: 'platform' | 'engine', table: string) => `${schema}.${table}`;

/** Refuses a header this platform cannot restore: not a backup, of a newer format or of a newer migration. */
export function checkHeader(value: unknown): BackupHeader {
  const header = value as Partial<BackupHeader> | undefined;
  if (!header || header.format !== BACKUP_FORMAT || typeof header.formatVersion !== 'number') throw new AppError('BackupUnreadable');
  if (header.formatVersion > FORMAT_VERSION) throw new AppError('BackupFormatNewer', { detail: { version: header.formatVersion, supported: FORMAT_VERSION } });
  if ((header.kind !== 'engine' && header.kind !== 'platform') || !header.migrations) throw new AppError('BackupUnreadable');
  const known = knownMigrations();
  for (const [set, names] of [['platform', header.migrations.platform], ['engine', header.migrations.engine]] as const) {
    const ours = new Set(known[set]);
    const unknown = (names ?? []).find((n) => !ours.has(n));
    if (unknown) throw new AppError('BackupMigrationNewer', { detail: { migration: unknown } });
  }
  return header as BackupHeader;
}

/** A damaged or incomplete file, with what was found wrong (in Chinese and in English). */
export const damaged = (reason: string, reasonEn: string) => new AppError('BackupFileDamaged', { detail: { reason, reasonEn } });
