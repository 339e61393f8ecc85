import { sql, type Kysely } from 'kysely';

/**
 * The inbound connector trigger's deliveries and the data-source node's settings (issue 44; docs/decisions/0123).
 * A delivery id is recorded once per automation, in the same transaction as the run it started, so a retried
 * delivery finds the first one's run. Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('connector_deliveries')
    .addColumn('automation_id', 'uuid', (c) => c.notNull().references('automations.id').onDelete('cascade'))
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('run_id', 'uuid')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('connector_deliveries_pk', ['automation_id', 'delivery_id'])
    .execute();
  await db.schema.createIndex('connector_deliveries_created').on('connector_deliveries').column('created_time').execute();
  await db.schema
    .createTable('data_sources')
    .addColumn('node_code', 'text', (c) => c.primaryKey())
    .addColumn('definition', 'jsonb', (c) => c.notNull())
    .addColumn('modified_by', 'text', (c) => c.notNull())
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_sources').execute();
  await db.schema.dropTable('connector_deliveries').execute();
}
