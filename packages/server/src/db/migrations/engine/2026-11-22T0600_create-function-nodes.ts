import { sql, type Kysely } from 'kysely';

/**
 * Apps and function nodes (issue 4, domain.md §3): the node tree, per-user and per-role node permissions, and the
 * workbench (per-user configuration, recent visits). Runs inside one engine schema.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('function_nodes')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('object_id', 'text', (c) => c.notNull().unique())
    .addColumn('parent_code', 'text')
    .addColumn('app_code', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('icon_color', 'text', (c) => c.notNull().defaultTo(''))
    // domain.md §3 node type codes
    .addColumn('node_type', 'integer', (c) => c.notNull().check(sql`node_type in (190, 200, 210, 220, 230, 240, 250, 270, 280, 290)`))
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('app_state', 'text', (c) => c.notNull().defaultTo('Normal'))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('Own'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('Normal').check(sql`state in ('Normal', 'Disabled')`))
    .addColumn('sort_key', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('url', 'text')
    // Set while a copy job writes the node; such rows are invisible until the job publishes them all at once.
    .addColumn('copy_job_id', 'text')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('function_nodes_code_ci_idx').on('function_nodes').expression(sql`lower(code)`).unique().execute();
  await db.schema.createIndex('function_nodes_tree_idx').on('function_nodes').columns(['app_code', 'parent_code', 'sort_key']).execute();
  await db.schema.createIndex('function_nodes_type_idx').on('function_nodes').columns(['node_type', 'sort_key']).execute();
  await db.schema.createIndex('function_nodes_copy_idx').on('function_nodes').column('copy_job_id').where(sql.ref('copy_job_id'), 'is not', null).execute();

  await db.schema
    .createTable('node_permissions')
    .addColumn('node_code', 'text', (c) => c.notNull().references('function_nodes.code').onDelete('cascade'))
    // An org_users id or a Role unit id.
    .addColumn('unit_id', 'text', (c) => c.notNull())
    .addColumn('permission', 'text', (c) => c.notNull().check(sql`permission in ('none', 'access', 'create', 'administrator')`))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('node_permissions_pk', ['node_code', 'unit_id'])
    .execute();
  await db.schema.createIndex('node_permissions_unit_idx').on('node_permissions').columns(['unit_id', 'node_code']).execute();

  await db.schema
    .createTable('workbench_configs')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('config', 'jsonb', (c) => c.notNull())
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('workbench_visits')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('node_code', 'text', (c) => c.notNull().references('function_nodes.code').onDelete('cascade'))
    .addColumn('visit_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_visit_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('workbench_visits_pk', ['user_id', 'node_code'])
    .execute();
  await db.schema.createIndex('workbench_visits_recent_idx').on('workbench_visits').columns(['user_id', 'last_visit_time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('workbench_visits').execute();
  await db.schema.dropTable('workbench_configs').execute();
  await db.schema.dropTable('node_permissions').execute();
  await db.schema.dropTable('function_nodes').execute();
}
