import { sql, type Kysely } from 'kysely';

// Test fixtures of the roll-back tests (docs/decisions/0031): a checksum of every row of a form's tables.

/**
 * One text per table of the form (main table and sub-tables): the count and an md5 over every row as the database's
 * JSON (every column), in ObjectId order. Equal checksums: the same rows with the same values.
 */
export async function formChecksum(db: Kysely<any>, engineCode: string, schemaCode: string): Promise<Record<string, string>> {
  const schema = `e_${engineCode}`;
  const tables = await sql<{ table_name: string }>`select table_name from ${sql.table(`${schema}.form_tables`)} where schema_code = ${schemaCode} order by grid_key`.execute(db);
  const out: Record<string, string> = {};
  for (const { table_name } of tables.rows) {
    const r = await sql<{ n: number; sum: string | null }>`
      select count(*)::int as n, md5(coalesce(string_agg(row_to_json(t)::text, '|' order by t."ObjectId"), '')) as sum
      from ${sql.table(`${schema}.${table_name}`)} t`.execute(db);
    out[table_name] = `${r.rows[0]!.n}:${r.rows[0]!.sum}`;
  }
  return out;
}

/** Rows of the engine's workflow tables that belong to instances of the form (for "nothing of the flow is left"). */
export async function workflowCounts(db: Kysely<any>, engineCode: string, schemaCode: string): Promise<Record<string, number>> {
  const schema = `e_${engineCode}`;
  const ids = sql`(select id from ${sql.table(`${schema}.wf_instances`)} where schema_code = ${schemaCode})`;
  const count = async (table: string, column: string) =>
    Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`${schema}.${table}`)} where ${sql.ref(column)} in ${ids}`.execute(db)).rows[0]!.n);
  return {
    instances: Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`${schema}.wf_instances`)} where schema_code = ${schemaCode}`.execute(db)).rows[0]!.n),
    tokens: await count('wf_tokens', 'instance_id'),
    items: await count('wf_work_items', 'instance_id'),
    comments: await count('wf_comments', 'instance_id'),
    reminders: Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`${schema}.remind_tasks`)} where schema_code = ${schemaCode}`.execute(db)).rows[0]!.n),
  };
}
