import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
import { engineDb, engineSchemaName } from '../../db/database.ts';
import { dropPreAggregate } from '../../db/pre-aggregate-names.ts';
import { UUID_ID_COLUMNS } from '../../db/uuid-ids.ts';
import type { JobHandler } from '../../jobs/job-registry.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// The storage change of decision 0128 for engines made before it: each form table's system id columns (CreatedBy,
// ModifiedBy, OwnerId, OwnerDeptId, WorkflowInstanceId) go from text to uuid, one table a transaction — the ALTER,
// which rewrites the table and its indexes under its lock, and the table's mark (form_tables.uuid_ids), which bumps
// the engine's forms version so every server process compiles for the new shape at once. The marks are the job's
// state: a job killed midway leaves every table either converted and marked or untouched, and its next run (the
// app puts a timed-out job back at start) converts what is left. A table holding a text that is not a uuid in one
// of these columns (no writer of the platform stores one) is left as it is, reported in the job's result, and read
// and written as text: the code handles both shapes; the next start queues the job again for it.

export const UUID_IDS_JOB = 'form.uuid-ids';

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/**
 * Queues the job for each engine that never had it, and puts one back to waiting that did not convert everything —
 * timed out (its process died), failed, or finished with tables skipped or failed: two statements at start; engines
 * made later have uuid tables from their first publish.
 */
export async function queueUuidIdsMigration(db: Db): Promise<number> {
  const unfinished = sql`(state in ('Timeout', 'Failed') or (state = 'Finished'
    and (jsonb_array_length(coalesce(result->'skipped', '[]')) > 0 or jsonb_array_length(coalesce(result->'failed', '[]')) > 0)))`;
  await sql`update platform.jobs set state = 'Waiting', progress = 0, message = null, worker_id = null, lease_until = null, finished_time = null
    where kind = ${UUID_IDS_JOB} and ${unfinished}`.execute(db);
  const r = await sql`
    insert into platform.jobs (id, engine_code, kind, payload)
    select gen_random_uuid()::text, e.engine_code, ${UUID_IDS_JOB}, '{}'::jsonb from platform.engines e
    where not exists (select 1 from platform.jobs j where j.engine_code = e.engine_code and j.kind = ${UUID_IDS_JOB})`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** What a table holds that cannot become a uuid: per column, how many values and one of them. */
export interface Unconvertible {
  table: string;
  schemaCode: string;
  column: string;
  values: number;
  sample: string;
}

/** The system id columns a table has as text (a sub-table has none). */
async function textIdColumns(edb: EngineExecutor, schema: string, table: string): Promise<string[]> {
  const r = await sql<{ name: string }>`
    select a.attname::text as name from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and c.relname = ${table} and a.attnum > 0 and not a.attisdropped
      and a.atttypid = 'text'::regtype and a.attname::text in (${sql.join([...UUID_ID_COLUMNS])})`.execute(edb);
  return UUID_ID_COLUMNS.filter((c) => r.rows.some((row) => row.name === c));
}

/** Values that are neither empty nor a uuid's text, per column (one scan of the table). */
async function unconvertible(edb: EngineExecutor, schema: string, table: string, columns: string[]): Promise<{ column: string; values: number; sample: string }[]> {
  const bad = (c: string) => sql`(${sql.ref(c)} <> '' and ${sql.ref(c)} !~ ${sql.lit(UUID_PATTERN)})`;
  const parts = columns.flatMap((c, i) => [sql`count(*) filter (where ${bad(c)})::int as ${sql.ref(`n${i}`)}`, sql`min(${sql.ref(c)}) filter (where ${bad(c)}) as ${sql.ref(`s${i}`)}`]);
  const row = (await sql<Record<string, number | string | null>>`select ${sql.join(parts)} from ${sql.table(`${schema}.${table}`)}`.execute(edb)).rows[0] ?? {};
  return columns.map((column, i) => ({ column, values: Number(row[`n${i}`] ?? 0), sample: String(row[`s${i}`] ?? '').slice(0, 64) })).filter((c) => c.values > 0);
}

/**
 * Converts one table in the caller's transaction: answers what stops it (nothing converted then), or [] when done.
 * An empty text becomes null (both read as no value everywhere).
 */
export async function convertTable(edb: EngineExecutor, schema: string, table: string, schemaCode: string): Promise<Unconvertible[]> {
  const columns = await textIdColumns(edb, schema, table);
  if (columns.length) {
    const blocked = await unconvertible(edb, schema, table, columns);
    if (blocked.length) return blocked.map((b) => ({ table, schemaCode, ...b }));
    // The report pre-aggregation copies OwnerDeptId's type and its triggers name the columns: rebuilt when read again.
    await dropPreAggregate(edb as never, schema, table);
    const actions = columns.map((c) => sql`alter column ${sql.ref(c)} type uuid using nullif(${sql.ref(c)}, '')::uuid`);
    await sql`alter table ${sql.table(`${schema}.${table}`)} ${sql.join(actions)}`.execute(edb);
  }
  await edb.updateTable('form_tables').set({ uuid_ids: true }).where('table_name', '=', table).execute();
  return [];
}

export function uuidIdsHandler(): JobHandler {
  return {
    async run(ctx) {
      const schema = engineSchemaName(ctx.engineCode);
      const tables = await engineDb(ctx.db, ctx.engineCode)
        .selectFrom('form_tables').select(['table_name', 'schema_code']).where('uuid_ids', '=', false).orderBy('schema_code').orderBy('grid_key').execute();
      const skipped: Unconvertible[] = [];
      const failed: { table: string; schemaCode: string; message: string }[] = [];
      let converted = 0;
      for (const [i, { table_name, schema_code }] of tables.entries()) {
        await ctx.assertOwned();
        try {
          await ctx.db.transaction().execute(async (trx) => {
            const edb = engineDb(trx as unknown as Db, ctx.engineCode);
            // Locked as a publish locks it (form-design.service.ts): no publish alters the table meanwhile.
            await edb.selectFrom('form_schemas').select('schema_code').where('schema_code', '=', schema_code).forUpdate().executeTakeFirst();
            const still = await edb.selectFrom('form_tables').select('uuid_ids').where('table_name', '=', table_name).executeTakeFirst();
            if (!still || still.uuid_ids) return;
            const blocked = await convertTable(edb, schema, table_name, schema_code);
            if (blocked.length) skipped.push(...blocked);
            else converted += 1;
          });
        } catch (error) {
          // One table's failure (rolled back whole) does not keep the others text; it is reported and tried again next run.
          failed.push({ table: table_name, schemaCode: schema_code, message: error instanceof Error ? error.message.slice(0, 300) : String(error) });
        }
        await ctx.reportProgress(((i + 1) / tables.length) * 100, `${i + 1}/${tables.length} ${table_name}`);
      }
      return { tables: tables.length, converted, skipped, failed };
    },
  };
}
