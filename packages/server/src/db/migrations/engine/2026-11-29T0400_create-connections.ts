import { sql, type Kysely } from 'kysely';

/**
 * Connection configs, connectors over them and the log of calls that left the platform (docs/decisions/0120).
 * Secrets are sealed (AES-256-GCM, the notification channels' box); the log keeps 30 days.
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('connections')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('http').check(sql`kind in ('http')`))
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('auth_kind', 'text', (c) => c.notNull().check(sql`auth_kind in ('none', 'basic', 'bearer', 'apiKey', 'oauth2', 'hmac')`))
    .addColumn('auth', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('secrets', 'text')
    .addColumn('health_path', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('normal').check(sql`status in ('disabled', 'normal', 'exception')`))
    .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_checked_time', 'timestamptz')
    .addColumn('created_by', 'text')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('connectors')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('connection_code', 'text', (c) => c.notNull().references('connections.code').onUpdate('cascade'))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('GET', 'POST', 'PUT', 'PATCH', 'DELETE')`))
    .addColumn('path', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('params', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('outputs', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('connectors_connection').on('connectors').column('connection_code').execute();
  await db.schema
    .createTable('connector_calls')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('connection_code', 'text', (c) => c.notNull())
    .addColumn('connector_code', 'text')
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('health', 'console', 'button', 'script', 'automation')`))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('ok', 'boolean', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('connector_calls_at').on('connector_calls').columns(['at', 'id']).execute();
  await db.schema.createIndex('connector_calls_connection_at').on('connector_calls').columns(['connection_code', 'at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('connector_calls').execute();
  await db.schema.dropTable('connectors').execute();
  await db.schema.dropTable('connections').execute();
}
