import { sql, type Kysely } from 'kysely';

/**
 * DingTalk shortcuts of an engine (issue 25, calls.md §2 /v1/shortcut/dingtalk): entries of the organisation's
 * DingTalk workplace, each opening one app or form (by function node code) through DingTalk's free login.
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dingtalk_shortcuts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('node_code', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dingtalk_shortcuts').execute();
}
