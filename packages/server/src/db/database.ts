import { Kysely, PostgresDialect } from 'kysely';
import { SerializedPGliteDialect } from './pglite-serialized-dialect.ts';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { EngineDb, PlatformDb } from './types.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Kysely<PlatformDb>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

// Return dates and bigints in the shapes the code expects on both drivers.
pg.types.setTypeParser(20, (v) => Number(v));

/** Opens PostgreSQL when a URL is given, otherwise PGlite (in memory when dataDir is undefined). */
export async function openDatabase(options: { databaseUrl?: string; pgliteDataDir?: string; pglite?: PGlite; onPoolError?: (error: Error) => void }): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client whose server went away (restart, failover, dropped database) emits 'error'; unhandled, that
    // would end the process. The pool drops the client and the next query opens a fresh one.
    pool.on('error', (error) => options.onPoolError?.(error));
    const db = new Kysely<PlatformDb>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  // pg_trgm serves "contains" filters through trigram indexes (docs/decisions/0013); PGlite loads it at creation.
  const pglite = options.pglite ?? (await PGlite.create({ ...(options.pgliteDataDir ? { dataDir: options.pgliteDataDir } : {}), extensions: { pg_trgm } }));
  const db = new Kysely<PlatformDb>({ dialect: new SerializedPGliteDialect({ pglite }) });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
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
