import { sql, type Kysely } from 'kysely';

/**
 * Request context (docs/decisions/0032): every change of what the request caches bumps the engine's version of that
 * concept, whichever code path makes it (node service, copy job, publish, removals). Draft saves do not touch the
 * published columns and bump nothing.
 */
const TRIGGERS: [table: string, events: string, concept: 'nodes' | 'forms'][] = [
  ['function_nodes', 'insert or update or delete or truncate', 'nodes'],
  ['node_permissions', 'insert or update or delete or truncate', 'nodes'],
  ['form_schemas', 'update of published, published_version or delete', 'forms'],
  ['form_tables', 'insert or update or delete or truncate', 'forms'],
];

/** The table in this engine's schema: raw SQL does not take the migrator's schema, a compiled select does. */
const qualified = (db: Kysely<any>, table: string) => sql.raw(db.selectFrom(table).selectAll().compile().sql.replace(/^select \* from /, ''));

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, events, concept] of TRIGGERS) {
    await sql`create trigger ${sql.raw(`${table}_context_version`)} after ${sql.raw(events)} on ${qualified(db, table)}
      for each statement execute function platform.bump_context_version(${sql.lit(concept)})`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table] of TRIGGERS) await sql`drop trigger ${sql.raw(`${table}_context_version`)} on ${qualified(db, table)}`.execute(db);
}
