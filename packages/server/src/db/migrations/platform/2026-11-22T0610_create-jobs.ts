import { sql, type Kysely } from 'kysely';

/**
 * Background jobs (architecture.md §4, issue 4). One platform table, so that any server process can claim the
 * work of any engine with SELECT … FOR UPDATE SKIP LOCKED; a Running job holds a lease its worker renews.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const p = db.withSchema('platform');
  await p.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // domain.md §4 background task states
    .addColumn('state', 'text', (c) =>
      c.notNull().defaultTo('Waiting').check(sql`state in ('Waiting', 'Running', 'Finished', 'Failed', 'Canceled', 'Timeout', 'Queuing', 'Suspend')`),
    )
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0).check(sql`progress between 0 and 100`))
    .addColumn('message', 'text')
    .addColumn('result', 'jsonb')
    .addColumn('created_by', 'text')
    .addColumn('worker_id', 'text')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_time', 'timestamptz')
    .addColumn('finished_time', 'timestamptz')
    .execute();
  await p.schema.createIndex('jobs_waiting_idx').on('jobs').column('created_time').where(sql.ref('state'), '=', 'Waiting').execute();
  await p.schema.createIndex('jobs_running_idx').on('jobs').column('lease_until').where(sql.ref('state'), '=', 'Running').execute();
  await p.schema.createIndex('jobs_engine_idx').on('jobs').columns(['engine_code', 'kind', 'created_time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.withSchema('platform').schema.dropTable('jobs').execute();
}
