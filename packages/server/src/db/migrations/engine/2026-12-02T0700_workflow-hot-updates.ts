import { sql, type Kysely } from 'kysely';

/**
 * A vote's updates of its work item, token and instance without needless index entries (docs/decisions/0134).
 * PostgreSQL updates a row in place of its page (HOT, no new index entries) only when no column of any of the table's
 * indexes changes and the page has room. A vote changes `state`:
 * - wf_tokens_instance_idx (instance_id, state) goes: the token's unique (instance_id, seq) already finds an
 *   instance's tokens, and an instance has a handful;
 * - wf_instances_originator_idx (originator, state, created_time) goes: wf_instances_started_idx (originator,
 *   created_time) serves the same reads, an originator's instances filtered by state;
 * - wf_work_items_participant_idx (participant, state, item_type) becomes a partial index of the open items, the
 *   to-do counts' and list's read (participant, item_type, created_time). A closed item is left out of it, so closing
 *   one writes one index entry less; the work items stay non-HOT (state is in the unique open-item index's predicate).
 * The three tables leave a tenth of each new page free, for the updates that follow an insert to stay on its page.
 * Frozen: repeats what it needs rather than importing application code.
 */
// The table's name with the engine's schema (the migrator's withSchema does not reach raw SQL).
const qualified = (db: Kysely<any>, table: string) => sql.raw(db.selectFrom(table).selectAll().compile().sql.replace(/^select \* from /, ''));

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('wf_tokens_instance_idx').execute();
  await db.schema.dropIndex('wf_instances_originator_idx').execute();
  await db.schema
    .createIndex('wf_work_items_open_idx')
    .on('wf_work_items')
    .columns(['participant', 'item_type', 'created_time'])
    .where(sql<boolean>`state in ('Waiting', 'Working')`)
    .execute();
  await db.schema.dropIndex('wf_work_items_participant_idx').execute();
  for (const table of ['wf_instances', 'wf_tokens', 'wf_work_items']) await sql`alter table ${qualified(db, table)} set (fillfactor = 90)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['wf_instances', 'wf_tokens', 'wf_work_items']) await sql`alter table ${qualified(db, table)} reset (fillfactor)`.execute(db);
  await db.schema.createIndex('wf_work_items_participant_idx').on('wf_work_items').columns(['participant', 'state', 'item_type']).execute();
  await db.schema.dropIndex('wf_work_items_open_idx').execute();
  await db.schema.createIndex('wf_instances_originator_idx').on('wf_instances').columns(['originator', 'state', 'created_time']).execute();
  await db.schema.createIndex('wf_tokens_instance_idx').on('wf_tokens').columns(['instance_id', 'state']).execute();
}
