import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const p = db.withSchema('platform');
  await p.schema
    .createTable('verify_codes')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('mobile', 'text', (c) => c.notNull())
    .addColumn('scene', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('consumed_at', 'timestamptz')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await p.schema.createIndex('verify_codes_mobile_idx').on('verify_codes').columns(['mobile', 'created_time']).execute();
  await p.schema
    .createTable('revoked_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await p.schema
    .createTable('feature_switches')
    .addColumn('engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('feature_switches_pk', ['engine_code', 'name'])
    .execute();
  await p.schema
    .createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await p.schema
    .createTable('error_logs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('engine_code', 'text')
    .addColumn('account_id', 'text')
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('log_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const p = db.withSchema('platform');
  for (const t of ['error_logs', 'settings', 'feature_switches', 'revoked_tokens', 'verify_codes']) await p.schema.dropTable(t).execute();
}
