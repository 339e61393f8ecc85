import { sql, type Kysely } from 'kysely';

/**
 * Associated organisations (关联组织, issue 25; docs/decisions/0091). One row per association link a host engine's
 * administrator issues: pending until a partner engine accepts it, then active until either side ends it. The host's
 * external department bound to the partner is `department_id`; which partner user is which host user is kept in
 * `associated_org_members`. One active association per (host, partner): the partial unique index holds it against
 * two acceptances at once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform.associated_orgs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host_engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('associated_code', 'text', (c) => c.notNull().unique())
    .addColumn('code_expires', 'timestamptz', (c) => c.notNull())
    .addColumn('partner_engine_code', 'text', (c) => c.references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('department_id', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending').check(sql`state in ('pending', 'active', 'ended')`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('accepted_time', 'timestamptz')
    .addColumn('ended_time', 'timestamptz')
    .addColumn('ended_by_engine', 'text')
    .execute();
  await sql`create unique index associated_orgs_active_pair on platform.associated_orgs (host_engine_code, partner_engine_code) where state = 'active'`.execute(db);
  await sql`create index associated_orgs_partner on platform.associated_orgs (partner_engine_code) where partner_engine_code is not null`.execute(db);
  await db.schema.createIndex('associated_orgs_host').on('platform.associated_orgs').columns(['host_engine_code', 'created_time']).execute();
  await db.schema
    .createTable('platform.associated_org_members')
    .addColumn('association_id', 'text', (c) => c.notNull().references('platform.associated_orgs.id').onDelete('cascade'))
    .addColumn('partner_user_id', 'text', (c) => c.notNull())
    .addColumn('host_user_id', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('associated_org_members_pk', ['association_id', 'partner_user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform.associated_org_members').execute();
  await db.schema.dropTable('platform.associated_orgs').execute();
}
