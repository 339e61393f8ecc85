import { sql, type Kysely } from 'kysely';

/**
 * The engine's AI provider (an OpenAI-compatible endpoint; the key sealed), its token credit, and the log of every
 * call (docs/decisions/0124). Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ai_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('api_key', 'text')
    .addColumn('chat_model', 'text', (c) => c.notNull())
    .addColumn('vision_model', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('quota_tokens', 'bigint')
    .addColumn('used_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('user_calls_per_minute', 'integer', (c) => c.notNull().defaultTo(20))
    .addColumn('updated_by', 'text')
    .addColumn('updated_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('ai_usage')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('scene', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('ok', 'boolean', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('ai_usage_at').on('ai_usage').columns(['at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ai_usage').execute();
  await db.schema.dropTable('ai_settings').execute();
}
