import { sql, type Kysely } from 'kysely';

/**
 * A job that becomes Waiting (queued, retried, swept back) wakes the runners at once (docs/decisions/0108): a NOTIFY
 * on `tritium_jobs`, sent when the transaction that queued it commits, heard by every server process that runs jobs.
 * PostgreSQL folds identical notifications of one transaction into one, so a batch of jobs wakes a runner once. The
 * runners' poll stays, for jobs whose time comes later (run_after) and for a wake that was missed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function platform.jobs_wake() returns trigger language plpgsql as $$
    begin
      perform pg_notify('tritium_jobs', '');
      return null;
    end $$`.execute(db);
  await sql`
    create trigger jobs_wake after insert or update of state on platform.jobs
    for each row when (new.state = 'Waiting') execute function platform.jobs_wake()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists jobs_wake on platform.jobs`.execute(db);
  await sql`drop function if exists platform.jobs_wake()`.execute(db);
}
