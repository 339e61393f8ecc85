import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createSchema('platform').ifNotExists().execute();
  const p = db.withSchema('platform');
  await p.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mobile', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active').check(sql`state in ('active', 'disabled')`))
    .addColumn('failed_password_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('tokens_valid_after', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_engine_code', 'text')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await p.schema
    .createTable('engines')
    .addColumn('engine_code', 'text', (c) => c.primaryKey())
    .addColumn('engine_name', 'text', (c) => c.notNull())
    .addColumn('engine_type', 'text', (c) => c.notNull())
    .addColumn('entry_type', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().defaultTo('allocating').check(sql`state in ('normal', 'disabled', 'migrating', 'archived', 'allocating')`),
    )
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('scale', 'text')
    .addColumn('logo_url', 'text')
    .addColumn('license_expires', 'timestamptz')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await p.schema
    .createTable('memberships')
    .addColumn('account_id', 'text', (c) => c.notNull().references('platform.accounts.id').onDelete('cascade'))
    .addColumn('engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('is_external', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('joined_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('memberships_pk', ['account_id', 'engine_code'])
    .execute();
  await p.schema.createIndex('memberships_engine_idx').on('memberships').columns(['engine_code', 'user_id']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const p = db.withSchema('platform');
  await p.schema.dropTable('memberships').execute();
  await p.schema.dropTable('engines').execute();
  await p.schema.dropTable('accounts').execute();
}
