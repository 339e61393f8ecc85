import { sql, type Kysely } from 'kysely';

/**
 * Sign-ins started with an outside identity provider (issue 25): the state sent to it is the key, with the nonce and
 * PKCE verifier the answer must match, the engine and provider, and where to go afterwards. A flow is used once
 * (used_time set in the statement that claims it) and only until expires_at; rows are purged after they expire.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform.sign_in_flows')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull().unique())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_time', 'timestamptz')
    .execute();
  await db.schema.createIndex('sign_in_flows_expires_idx').on('platform.sign_in_flows').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform.sign_in_flows').execute();
}
