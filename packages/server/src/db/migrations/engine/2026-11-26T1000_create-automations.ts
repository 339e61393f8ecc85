import { sql, type Kysely } from 'kysely';

/**
 * Automations (issue 21; docs/decisions/0041). An automation is one row with its model as JSON; its trigger type and
 * enabled switch are columns, so a save of a form reads the enabled data-event automations of that form by index
 * (and caches them under the engine's 'forms' version, which every change here bumps). A run is one event of one
 * automation: the unique (automation, event key) keeps an event from running twice; its job runs it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('automations')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('trigger_type', 'text', (c) => c.notNull())
    .addColumn('definition', 'jsonb', (c) => c.notNull())
    .addColumn('run_as', 'text', (c) => c.notNull().defaultTo('owner').check(sql`run_as in ('owner', 'system')`))
    .addColumn('owner', 'text', (c) => c.notNull())
    // The webhook trigger's secret, sealed (secret-box); null for other triggers.
    .addColumn('webhook_token', 'text')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('automations_form_idx').on('automations').columns(['schema_code', 'trigger_type']).execute();

  await db.schema
    .createTable('automation_runs')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('automation_id', 'uuid', (c) => c.notNull().references('automations.id').onDelete('cascade'))
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('trigger_type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('Waiting').check(sql`state in ('Waiting', 'Running', 'Succeeded', 'Failed', 'Skipped', 'Stopped')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Automations whose writes started this run, oldest first (a cycle and the depth limit are read from it).
    .addColumn('chain', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('inputs', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('steps', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('created_by', 'text')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_time', 'timestamptz')
    .addUniqueConstraint('automation_runs_event_uq', ['automation_id', 'event_key'])
    .execute();
  await db.schema.createIndex('automation_runs_form_idx').on('automation_runs').columns(['schema_code', 'created_time']).execute();
  await db.schema.createIndex('automation_runs_automation_idx').on('automation_runs').columns(['automation_id', 'created_time']).execute();

  const table = sql.raw(db.selectFrom('automations').selectAll().compile().sql.replace(/^select \* from /, ''));
  await sql`create trigger automations_context_version after insert or update or delete or truncate on ${table}
    for each statement execute function platform.bump_context_version('forms')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('automation_runs').execute();
  await db.schema.dropTable('automations').execute();
}
