import { sql, type Kysely } from 'kysely';

/**
 * Form permissions (issue 19, docs/decisions/0037): a form's permission groups. Each names its members (users,
 * departments with the departments below them, roles), the actions it grants, a data scope for viewing and one for
 * editing and deleting, and field rights by code. A change bumps the engine's 'forms' context version, so the groups
 * cached beside the published forms are read again on the next request of any server process.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('form_permission_groups')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('members', 'jsonb', (c) => c.notNull())
    .addColumn('actions', 'jsonb', (c) => c.notNull())
    .addColumn('view_scope', 'text', (c) => c.notNull())
    .addColumn('edit_scope', 'text', (c) => c.notNull())
    .addColumn('field_rights', 'jsonb', (c) => c.notNull())
    .addColumn('sort_key', 'integer', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('form_permission_groups_schema').on('form_permission_groups').columns(['schema_code', 'sort_key']).execute();
  const table = sql.raw(db.selectFrom('form_permission_groups').selectAll().compile().sql.replace(/^select \* from /, ''));
  await sql`create trigger form_permission_groups_context_version after insert or update or delete or truncate on ${table}
    for each statement execute function platform.bump_context_version('forms')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('form_permission_groups').execute();
}
