import { sql, type Kysely } from 'kysely';

/**
 * Invitations (issue 3): a mobile number invited into an engine as one of its users. The next sign-in or
 * registration of that number claims it: the account becomes that user and a member of the engine.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const p = db.withSchema('platform');
  await p.schema
    .createTable('invitations')
    .addColumn('engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('mobile', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('invitations_pk', ['engine_code', 'mobile'])
    .execute();
  await p.schema.createIndex('invitations_mobile_idx').on('invitations').column('mobile').execute();
  await p.schema.createIndex('invitations_user_idx').on('invitations').columns(['engine_code', 'user_id']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.withSchema('platform').schema.dropTable('invitations').execute();
}
