import { sql, type Kysely } from 'kysely';

/** Runs inside one engine schema (the migrator passes db.withSchema('e_<code>')). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('org_units')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('parent_id', 'text')
    .addColumn('unit_type', 'text', (c) =>
      c.notNull().check(sql`unit_type in ('Company', 'OrganizationUnit', 'User', 'Role', 'Post', 'RoleGroup')`),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('normal'))
    .addColumn('is_external', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('entry_id', 'text')
    .addColumn('sort_key', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('org_units_parent_idx').on('org_units').columns(['parent_id', 'sort_key']).execute();
  await db.schema
    .createTable('org_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mobile', 'text', (c) => c.notNull())
    .addColumn('auth_type', 'integer', (c) => c.notNull().check(sql`auth_type between 1 and 6`))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active').check(sql`state in ('active', 'disabled')`))
    .addColumn('is_external', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('main_department_id', 'text')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('org_users_mobile_idx').on('org_users').column('mobile').unique().execute();
  await db.schema.createIndex('org_users_account_idx').on('org_users').column('account_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('org_users').execute();
  await db.schema.dropTable('org_units').execute();
}
