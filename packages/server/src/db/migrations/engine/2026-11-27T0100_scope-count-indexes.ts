import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * A member's scoped count is a sum of branches, one per indexed term of their scopes (docs/decisions/0063): forms
 * published before it get the creator's index that new main tables are made with (form-design/ddl-executor.ts), so
 * their "relevant" branch is an index scan, not a scan of the table.
 */
/**
 * The creator index's name as form-design/table-names.ts (systemIndexNames) gives it — db/ does not import the modules
 * (docs/decisions/0026): past 63 characters, the first 54, '_' and 8 hex digits of a hash of the whole.
 */
export function creatorIndexName(table: string): string {
  const base = `xb_${table.replace(/^i_/, '')}`;
  return base.length <= 63 ? base : `${base.slice(0, 54)}_${createHash('sha1').update(`${base}#`).digest('hex').slice(0, 8)}`;
}

const schemaOf = (db: Kysely<any>) => /^select \* from "([^"]+)"\./.exec(db.selectFrom('form_tables').selectAll().compile().sql)?.[1];

export async function up(db: Kysely<any>): Promise<void> {
  const schema = schemaOf(db);
  const tables = await db.selectFrom('form_tables').select('table_name').where('grid_key', '=', '').execute();
  for (const { table_name: table } of tables) {
    const name = creatorIndexName(table);
    const target = schema ? sql.id(schema, table) : sql.id(table);
    await sql`create index if not exists ${sql.id(name)} on ${target} ("CreatedBy") include ("OwnerDeptId", "OwnerId")`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const schema = schemaOf(db);
  const tables = await db.selectFrom('form_tables').select('table_name').where('grid_key', '=', '').execute();
  for (const { table_name: table } of tables) {
    const name = creatorIndexName(table);
    await sql`drop index if exists ${schema ? sql.id(schema, name) : sql.id(name)}`.execute(db);
  }
}
