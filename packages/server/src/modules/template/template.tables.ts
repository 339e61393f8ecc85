import type { ColumnType, Generated, Kysely, Transaction } from 'kysely';
import type { Db, PlatformDb } from '../../db/types.ts';

// The template tables (migration 2026-12-02T0300_create-templates; docs/decisions/0131).

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;

/** A picture of a template: bytes in the file store (published) or a file shipped beside a built-in manifest. */
export type TemplatePicture = { kind: 'store'; key: string; contentType: string } | { kind: 'builtIn'; file: string; contentType: string };

export interface TemplateTable {
  id: string;
  code: string;
  scope: 'Engine' | 'Platform';
  publisher_engine: string | null;
  source_app_code: string | null;
  name: string;
  category: string;
  summary: Generated<string>;
  description: Generated<string>;
  icon: Generated<string>;
  icon_color: Generated<string>;
  pictures: Json<TemplatePicture[]>;
  package_id: string;
  package_sha256: string | null;
  /** The package's summary as the package layer gave it (forms, sample counts). */
  package_summary: Json<Record<string, unknown>>;
  built_in: Generated<boolean>;
  version: Generated<number>;
  published_by: string | null;
  published_time: Timestamp;
  install_count: Generated<number>;
}

export interface TemplateShareTable {
  template_id: string;
  engine_code: string;
  shared_by: string;
  shared_time: Timestamp;
}

export interface TemplateTables extends PlatformDb {
  'platform.templates': TemplateTable;
  'platform.template_shares': TemplateShareTable;
}

export type TemplateExecutor = Kysely<TemplateTables> | Transaction<TemplateTables>;

/** The platform database seen with the template tables. */
export const templateDb = (db: Db | Transaction<PlatformDb>): TemplateExecutor => db as unknown as TemplateExecutor;
