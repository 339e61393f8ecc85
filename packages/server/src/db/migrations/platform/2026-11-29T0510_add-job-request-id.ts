import type { Kysely } from 'kysely';

/** The request that queued a job, so the job's log lines can be traced back to it (docs/decisions/0121). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.withSchema('platform').schema.alterTable('jobs').addColumn('request_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.withSchema('platform').schema.alterTable('jobs').dropColumn('request_id').execute();
}
