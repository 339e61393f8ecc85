import { sql, type Kysely } from 'kysely';

/**
 * The operation log (docs/decisions/0113): one row per administrator's change, chained by SHA-256 (each row's hash
 * covers its content and the previous row's hash). `oplog_head` is the chain's one row: the last entry written
 * (locked by every write, so concurrent writes keep one chain) and the anchor, the hash of the last entry removed
 * by the retention sweep. Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oplog')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    .addColumn('time', 'timestamptz', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('object_name', 'text')
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('request_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oplog_time').on('oplog').column('time').execute();
  await db.schema
    .createTable('oplog_head')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_hash', 'text', (c) => c.notNull())
    .addColumn('anchor_seq', 'bigint', (c) => c.notNull())
    .addColumn('anchor_hash', 'text', (c) => c.notNull())
    .execute();
  const genesis = '0'.repeat(64);
  await db.insertInto('oplog_head').values({ id: 1, last_seq: 0, last_hash: genesis, anchor_seq: 0, anchor_hash: genesis }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oplog_head').execute();
  await db.schema.dropTable('oplog').execute();
}
