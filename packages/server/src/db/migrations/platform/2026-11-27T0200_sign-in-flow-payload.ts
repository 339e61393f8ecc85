import type { Kysely } from 'kysely';

/**
 * A started sign-in may carry what it needs to finish (issue 25, docs/decisions/0061): a mobile-binding ticket keeps the
 * chat platform's person (provider, id, name) until the person proves a mobile number.
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('platform.sign_in_flows').addColumn('payload', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('platform.sign_in_flows').dropColumn('payload').execute();
}
