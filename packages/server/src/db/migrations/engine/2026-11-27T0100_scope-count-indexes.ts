import { sql, type Kysely } from 'kysely';
import { systemIndexNames } from '../../../modules/form-design/table-names.ts';

/**
 * A member's scoped count is a sum of branches, one per indexed term of their scopes (docs/decisions/0063): forms
 * published before it get the creator's index that new main tables are made with (form-design/ddl-executor.ts), so
 * their "relevant" branch is an index scan, not a scan of the table.
 */
const schemaOf = (db: Kysely<any>) => /^select \* from "([^"]+)"\./.exec(db.selectFrom('form_tables').selectAll().compile().sql)?.[1];

export async function up(db: Kysely<any>): Promise<void> {
  const schema = schemaOf(db);
  const tables = await db.selectFrom('form_tables').select('table_name').where('grid_key', '=', '').execute();
  for (const { table_name: table } of tables) {
    const name = systemIndexNames(table).creator;
    const target = schema ? sql.id(schema, table) : sql.id(table);
    await sql`create index if not exists ${sql.id(name)} on ${target} ("CreatedBy") include ("OwnerDeptId", "OwnerId")`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const schema = schemaOf(db);
  const tables = await db.selectFrom('form_tables').select('table_name').where('grid_key', '=', '').execute();
  for (const { table_name: table } of tables) {
    const name = systemIndexNames(table).creator;
    await sql`drop index if exists ${schema ? sql.id(schema, name) : sql.id(name)}`.execute(db);
  }
}
