import { sql, type Kysely } from 'kysely';

/**
 * One WeChat per user (decisions 0078, 0090, 0097) held by the database: two binds of one user at the same moment
 * could both pass the service's check. A user bound to two WeChats before this keeps the first bound one.
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom('org_user_identities as later')
    .using('org_user_identities as first')
    .where('later.provider', '=', 'wechat')
    .where('first.provider', '=', 'wechat')
    .whereRef('later.user_id', '=', 'first.user_id')
    .where(sql<boolean>`(first.created_time, first.subject) < (later.created_time, later.subject)`)
    .execute();
  await db.schema.createIndex('org_user_identities_one_wechat').on('org_user_identities').column('user_id').unique().where(sql.ref('provider'), '=', 'wechat').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('org_user_identities_one_wechat').execute();
}
