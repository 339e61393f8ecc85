import { sql, type Kysely } from 'kysely';
import { pinyin } from 'pinyin-pro';

/**
 * Organisation (issue 3): department managers, pinyin search keys, users in several departments with one main,
 * role members, post holders, and the external root. Runs inside one engine schema.
 * Frozen: it repeats what it needs rather than importing application code.
 */

// calls.md §3: the external root's fixed id and display name (equal to EXTERNAL_ROOT_NODE_ID and
// EXTERNAL_ROOT_NODE_NAME of @tritium/shared/constants/org; a test holds them equal).
const EXTERNAL_ROOT_ID = '9ce2cd02-e1dc-4332-a80c-b84b4979d128';
const EXTERNAL_ROOT_NAME = '外部组织';

function keys(name: string, mobile: string | null) {
  const letters = (t: string) => t.toLowerCase().replace(/[^a-z0-9]/g, '');
  const syllables = pinyin(name, { toneType: 'none', type: 'array', v: true, nonZh: 'consecutive', surname: 'head' }).map(letters).filter(Boolean);
  const full = syllables.join('');
  const initials = syllables.map((s) => s[0]).join('');
  const compactName = name.toLowerCase().replace(/[\s\u3000]+/g, '');
  return { name_pinyin: full, name_initials: initials, search_text: [compactName, full, initials, mobile ?? ''].filter(Boolean).join(' ') };
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('org_units').addColumn('manager_id', 'text').execute();
  for (const table of ['org_units', 'org_users']) {
    await db.schema
      .alterTable(table)
      .addColumn('name_pinyin', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('name_initials', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  await db.schema.createIndex('org_units_type_idx').on('org_units').columns(['unit_type', 'is_external', 'sort_key']).execute();
  await db.schema.createIndex('org_units_manager_idx').on('org_units').column('manager_id').execute();
  // Names are unique among siblings of one type (departments under one parent, roles in one group, …).
  await db.schema.createIndex('org_units_sibling_name_idx').on('org_units').columns(['parent_id', 'unit_type', 'name']).unique().execute();
  // Lists are ordered by pinyin; the id breaks ties so that paging is stable.
  await db.schema.createIndex('org_users_pinyin_idx').on('org_users').columns(['name_pinyin', 'id']).execute();
  await db.schema.createIndex('org_users_main_department_idx').on('org_users').column('main_department_id').execute();

  await db.schema
    .createTable('org_user_departments')
    .addColumn('user_id', 'text', (c) => c.notNull().references('org_users.id').onDelete('cascade'))
    .addColumn('department_id', 'text', (c) => c.notNull().references('org_units.id'))
    .addColumn('is_main', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('org_user_departments_pk', ['user_id', 'department_id'])
    .execute();
  await db.schema.createIndex('org_user_departments_department_idx').on('org_user_departments').columns(['department_id', 'user_id']).execute();
  await db.schema.createIndex('org_user_departments_main_idx').on('org_user_departments').column('user_id').unique().where(sql.ref('is_main'), '=', true).execute();

  for (const [table, unitColumn] of [['org_role_members', 'role_id'], ['org_user_posts', 'post_id']] as const) {
    await db.schema
      .createTable(table)
      .addColumn(unitColumn, 'text', (c) => c.notNull().references('org_units.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('org_users.id').onDelete('cascade'))
      .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint(`${table}_pk`, [unitColumn, 'user_id'])
      .execute();
    await db.schema.createIndex(`${table}_user_idx`).on(table).column('user_id').execute();
  }

  // Existing rows: search keys, and each user's main department as a membership.
  const units = await db.selectFrom('org_units').select(['id', 'name']).execute();
  for (const u of units) await db.updateTable('org_units').set(keys(u.name, null)).where('id', '=', u.id).execute();
  const users = await db.selectFrom('org_users').select(['id', 'name', 'mobile', 'main_department_id']).execute();
  for (const u of users) {
    await db.updateTable('org_users').set(keys(u.name, u.mobile)).where('id', '=', u.id).execute();
    if (u.main_department_id) {
      await db.insertInto('org_user_departments').values({ user_id: u.id, department_id: u.main_department_id, is_main: true }).execute();
    }
  }

  await db
    .insertInto('org_units')
    .values({ id: EXTERNAL_ROOT_ID, parent_id: null, unit_type: 'OrganizationUnit', name: EXTERNAL_ROOT_NAME, is_external: true, entry_id: null, sort_key: 0, ...keys(EXTERNAL_ROOT_NAME, null) })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('org_user_posts').execute();
  await db.schema.dropTable('org_role_members').execute();
  await db.schema.dropTable('org_user_departments').execute();
  await db.deleteFrom('org_units').where('id', '=', EXTERNAL_ROOT_ID).execute();
  await db.schema.dropIndex('org_users_main_department_idx').execute();
  await db.schema.dropIndex('org_users_pinyin_idx').execute();
  await db.schema.dropIndex('org_units_sibling_name_idx').execute();
  await db.schema.dropIndex('org_units_manager_idx').execute();
  await db.schema.dropIndex('org_units_type_idx').execute();
  await db.schema.alterTable('org_users').dropColumn('name_pinyin').dropColumn('name_initials').dropColumn('search_text').execute();
  await db.schema.alterTable('org_units').dropColumn('manager_id').dropColumn('name_pinyin').dropColumn('name_initials').dropColumn('search_text').execute();
}
