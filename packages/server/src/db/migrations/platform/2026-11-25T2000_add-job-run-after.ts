import { sql, type Kysely } from 'kysely';

/**
 * A job may wait before it is claimed (issue 20: a failed delivery is retried with back-off; the scheduler of issue
 * 21 queues work for a time). Claims take only Waiting jobs whose run_after has come.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const p = db.withSchema('platform');
  await p.schema.alterTable('jobs').addColumn('run_after', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.withSchema('platform').schema.alterTable('jobs').dropColumn('run_after').execute();
}
