import { sql, type Kysely } from 'kysely';

/**
 * Outside sign-in of an engine (issue 25): one row per provider ('oidc' for enterprise single sign-on; the chat
 * platforms join under their own names) with its settings, and its secrets only as AES-256-GCM ciphertext; the
 * identities people have there, bound to the engine's users (provider and subject), so that a second sign-in finds
 * the same user even after the matched claim changed; the departments a directory sync brought from a platform, bound
 * the same way; and the users' employee numbers, a claim SSO can match.
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sign_in_providers')
    .addColumn('provider', 'text', (c) => c.primaryKey())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('secrets', 'text')
    .addColumn('modified_by', 'text', (c) => c.notNull())
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('org_user_identities')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('org_users.id').onDelete('cascade'))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('org_user_identities_pkey', ['provider', 'subject'])
    .execute();
  await db.schema.createIndex('org_user_identities_user_idx').on('org_user_identities').columns(['user_id', 'provider']).execute();
  await db.schema
    .createTable('org_unit_identities')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('unit_id', 'text', (c) => c.notNull().references('org_units.id').onDelete('cascade'))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('org_unit_identities_pkey', ['provider', 'subject'])
    .execute();
  await db.schema.alterTable('org_users').addColumn('employee_no', 'text').execute();
  await db.schema.createIndex('org_users_employee_no_idx').on('org_users').column('employee_no').where(sql.ref('employee_no'), 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('org_users_employee_no_idx').execute();
  await db.schema.alterTable('org_users').dropColumn('employee_no').execute();
  await db.schema.dropTable('org_unit_identities').execute();
  await db.schema.dropTable('org_user_identities').execute();
  await db.schema.dropTable('sign_in_providers').execute();
}
