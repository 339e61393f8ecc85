import { sql, type Kysely } from 'kysely';

/**
 * E-signature flows (issue 44; docs/decisions/0123, e-signature): a flow per start of a record's e-sign control, its
 * signers in order, and the trail of what happened. Callbacks are idempotent through the trail's unique event key.
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('esign_flows')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('template_code', 'text', (c) => c.notNull())
    .addColumn('provider_flow_id', 'text')
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('control_code', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('PreCommit', 'Draft', 'Running', 'Finish', 'Revoke', 'Abort', 'Expired', 'Delete', 'Refuse')`),
    )
    .addColumn('initiator', 'text', (c) => c.notNull())
    .addColumn('document_file_id', 'uuid')
    .addColumn('signed_file_id', 'uuid')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_time', 'timestamptz')
    .execute();
  await db.schema.createIndex('esign_flows_record').on('esign_flows').columns(['schema_code', 'object_id', 'control_code']).execute();
  await db.schema.createIndex('esign_flows_provider_flow').on('esign_flows').columns(['template_code', 'provider_flow_id']).execute();
  await db.schema
    .createTable('esign_signers')
    .addColumn('flow_id', 'uuid', (c) => c.notNull().references('esign_flows.id').onDelete('cascade'))
    .addColumn('sign_order', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mobile', 'text', (c) => c.notNull())
    .addColumn('for_organization', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('Waiting', 'Signing', 'Complete', 'WaitForApproval', 'Refuse')`))
    .addColumn('sign_url', 'text')
    .addColumn('started_time', 'timestamptz')
    .addColumn('signed_time', 'timestamptz')
    .addColumn('reason', 'text')
    .addPrimaryKeyConstraint('esign_signers_pk', ['flow_id', 'sign_order'])
    .execute();
  await db.schema
    .createTable('esign_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('flow_id', 'uuid', (c) => c.notNull().references('esign_flows.id').onDelete('cascade'))
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('sign_order', 'integer')
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('esign_events_key', ['flow_id', 'event_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('esign_events').execute();
  await db.schema.dropTable('esign_signers').execute();
  await db.schema.dropTable('esign_flows').execute();
}
