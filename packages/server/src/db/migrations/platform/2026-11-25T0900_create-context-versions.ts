import { sql, type Kysely } from 'kysely';

/**
 * Request context (docs/decisions/0032): one version per engine and concept ('nodes': function nodes and their grants;
 * 'forms': published form definitions and their tables). Triggers on those tables bump it in the transaction of the
 * change, so a change and its new version commit together; every request reads the versions in its one context
 * statement and trusts its caches only while they match. No row means version 0.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform.context_versions')
    .addColumn('engine_code', 'text', (c) => c.notNull())
    .addColumn('concept', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('context_versions_pk', ['engine_code', 'concept'])
    .execute();
  // Statement-level: one bump per changing statement, whatever the number of rows. The engine is the schema's name
  // without its "e_" prefix (engineSchemaName).
  await sql`
    create function platform.bump_context_version() returns trigger language plpgsql as $$
    begin
      insert into platform.context_versions as v (engine_code, concept, version)
      values (substr(TG_TABLE_SCHEMA, 3), TG_ARGV[0], 1)
      on conflict (engine_code, concept) do update set version = v.version + 1;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function platform.bump_context_version()`.execute(db);
  await db.schema.dropTable('platform.context_versions').execute();
}
