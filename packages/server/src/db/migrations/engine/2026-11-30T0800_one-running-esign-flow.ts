import { sql, type Kysely } from 'kysely';

/**
 * One running signing flow per record control (docs/decisions/0123, e-signature). The start checks it first, but two
 * starts at the same moment both pass that check; the partial unique index lets only one of them commit. Flows left
 * running twice by such a race before this index existed keep only the latest as running: the older ones are marked
 * Abort, since their signers can no longer be followed on the record anyway.
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('esign_flows as f')
    .set({ state: 'Abort', finished_time: sql`now()`, modified_time: sql`now()` })
    .where('f.state', '=', 'Running')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('esign_flows as g')
          .select(sql`1`.as('one'))
          .where('g.state', '=', 'Running')
          .whereRef('g.schema_code', '=', 'f.schema_code')
          .whereRef('g.object_id', '=', 'f.object_id')
          .whereRef('g.control_code', '=', 'f.control_code')
          .where((eb) => eb.or([eb('g.created_time', '>', eb.ref('f.created_time')), eb.and([eb('g.created_time', '=', eb.ref('f.created_time')), eb('g.id', '>', eb.ref('f.id'))])])),
      ),
    )
    .execute();
  await db.schema
    .createIndex('esign_flows_one_running')
    .on('esign_flows')
    .unique()
    .columns(['schema_code', 'object_id', 'control_code'])
    .where(sql.ref('state'), '=', 'Running')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('esign_flows_one_running').execute();
}
