import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { anyDb, type RuntimeForm } from '../business-data/runtime-form.ts';
import { engineTable } from '../business-data/json-rows.ts';
import { engineSchemaName } from '../../db/database.ts';

// What an import keeps so it can be rolled back (docs/decisions/0031), written in each batch's own transaction:
// the before-image of every record it updates (taken before its first write to the record: the main row and every
// sub-table row, as the database's own JSON, so restoring them gives back the same values to the microsecond) and,
// for every record it created or updated, a fingerprint of the record after the batch (main row, sub-table rows and
// its workflow instance row). A roll back compares the fingerprint with the record as it is then: a different one
// means somebody (or a flow) changed it after the import.

/**
 * A main row as the database's JSON text less its lowered twins (form-design/trigram-indexes.ts, decision 0103): a
 * fingerprint is the same whether the twins were laid between the import and its roll back, and the same as before
 * the twins existed. The twins' entries are cut out of the whole row's JSON: a twin's entry is `,"~code":"…"` or
 * `,"~code":null` (never the first: ObjectId is); inside a JSON string every quote is escaped, so `,"~` only starts a key.
 */
const mainRowText = (alias: string) => sql<string>`regexp_replace(row_to_json(${sql.id(alias)})::text, ${TWIN_ENTRY}, '', 'g')`;

/**
 * The same text as `mainRowText` without a regular expression over every row (issue 50, decision 0133: 17.6 → 7.6 ms
 * for the fingerprints of 1000 rows of the bench's form): the JSON of a record of the table's other columns, in the
 * table's order, is the row's JSON less the twins' entries, key for key. `columns` were read from the catalog earlier
 * (`mainColumns`, once per task run); the statement checks them against the catalog once (an initplan) and falls
 * back to `mainRowText` when the table's columns changed meanwhile (a republish between two batches).
 */
function mainRowTextOf(engineCode: string, form: RuntimeForm, alias: string, columns: readonly string[] | undefined) {
  if (!columns?.length) return mainRowText(alias);
  const record = sql<string>`(select row_to_json(r)::text from (select ${sql.join(columns.map((c) => sql.id(alias, c)))}) r)`;
  return sql<string>`case when ${columnListOf(engineCode, form)} = ${columns.join(SEPARATOR)}::text then ${record} else ${mainRowText(alias)} end`;
}

const SEPARATOR = '\n';

/** The main table's columns less the twins, as one text (`SEPARATOR` between names), by the catalog. */
const columnListOf = (engineCode: string, form: RuntimeForm) => sql<string>`(select string_agg(attname::text, ${SEPARATOR}::text order by attnum) from pg_attribute
    where attrelid = format('%I.%I', ${engineSchemaName(engineCode)}::text, ${form.mainTable}::text)::regclass
      and attnum > 0 and not attisdropped and left(attname, 1) <> '~')`;

const TWIN_ENTRY = ',"~[^"]*":(null|"([^"\\\\]|\\\\.)*")';

/** The form's main-table columns that are not lowered twins, in the table's order (what `row_to_json` of a row lists). */
export async function mainColumns(edb: EngineExecutor, engineCode: string, form: RuntimeForm): Promise<string[]> {
  const { rows } = await sql<{ list: string | null }>`select ${columnListOf(engineCode, form)} as list`.execute(anyDb(edb));
  return rows[0]?.list ? rows[0].list.split(SEPARATOR) : [];
}

export interface BeforeImage {
  main: string;
  children: string;
}

/** The record's rows as they are now (undefined: no such record). */
export async function beforeImage(edb: EngineExecutor, form: RuntimeForm, objectId: string): Promise<BeforeImage | undefined> {
  const db = anyDb(edb);
  const main = await db.selectFrom(`${form.mainTable} as m`).select(sql<string>`row_to_json(m)::text`.as('json')).where('m.ObjectId', '=', objectId).executeTakeFirst();
  if (!main) return undefined;
  const parts: string[] = [];
  for (const grid of form.grids) {
    const rows = await db
      .selectFrom(`${grid.table} as c`)
      .select(sql<string>`coalesce(json_agg(c order by c."SortKey", c."ObjectId")::text, '[]')`.as('json'))
      .where('c.ParentObjectId', '=', objectId)
      .executeTakeFirstOrThrow();
    parts.push(`${JSON.stringify(grid.code)}:${rows.json}`);
  }
  return { main: main.json, children: `{${parts.join(',')}}` };
}

/**
 * Fingerprints of the records `ids` as they are now: one query for the main rows (with their workflow instance)
 * and one per sub-table. Records that do not exist are absent from the answer.
 */
export async function fingerprints(edb: EngineExecutor, form: RuntimeForm, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!ids.length) return out;
  const db = anyDb(edb);
  const texts = new Map<string, string[]>();
  for (let at = 0; at < ids.length; at += 1000) {
    const part = ids.slice(at, at + 1000);
    const mains = await db
      .selectFrom(`${form.mainTable} as m`)
      .leftJoin('wf_instances as i', (join) => join.on(sql<boolean>`i.id = m."WorkflowInstanceId"::uuid`))
      .select([sql<string>`m."ObjectId"::text`.as('id'), mainRowText('m').as('main'), sql<string | null>`row_to_json(i)::text`.as('instance')])
      .where('m.ObjectId', 'in', part)
      .execute();
    for (const r of mains) texts.set(r.id, [r.main, r.instance ?? '']);
    for (const grid of form.grids) {
      const rows = await db
        .selectFrom(`${grid.table} as c`)
        .select([sql<string>`c."ParentObjectId"::text`.as('id'), sql<string>`string_agg(row_to_json(c)::text, '|' order by c."SortKey", c."ObjectId")`.as('rows')])
        .where('c.ParentObjectId', 'in', part)
        .groupBy('c.ParentObjectId')
        .execute();
      for (const r of rows) texts.get(r.id)?.push(`${grid.code}:${r.rows}`);
    }
  }
  for (const [id, parts] of texts) out.set(id, createHash('sha256').update(parts.join('\n')).digest('base64'));
  return out;
}

export interface ImportedObject {
  objectId: string;
  rowNo: number;
  action: 'insert' | 'update';
}

/**
 * At the end of a batch, in its transaction, as ONE statement (issue 26, docs/decisions/0081): the batch's marks (one
 * per file row, data_import_rows) and one row per record it wrote (data_import_objects). The first write of a task to
 * a record decides its action and keeps its before-image; a later write of the same task only renews the fingerprint.
 * The fingerprints are worked out by the database from the rows as they are (the same text and hash `fingerprints`
 * makes, which a roll back compares with), so the rows are not read back.
 */
export async function keepImported(
  edb: EngineExecutor,
  engineCode: string,
  form: RuntimeForm,
  taskId: string,
  objects: readonly ImportedObject[],
  images: ReadonlyMap<string, BeforeImage>,
  /** The main table's columns less the twins (`mainColumns`): the fingerprints' text without a regular expression. */
  columns?: readonly string[],
): Promise<void> {
  if (!objects.length) return;
  const first = new Map<string, ImportedObject>();
  for (const o of objects) if (!first.has(o.objectId)) first.set(o.objectId, o);
  // The task is one parameter, not a key of every row; a new record's row has no before-image keys (issue 50: the
  // two JSON texts of an inserting batch about 310 → 175 bytes a record).
  const marks = JSON.stringify(objects.map((o) => ({ row_no: o.rowNo, object_id: o.objectId, action: o.action })));
  // Before-images are the database's own JSON text: spliced in as they are, never parsed and written again.
  const kept = [...first.values()].map((o) => {
    const image = o.action === 'update' ? images.get(o.objectId) : undefined;
    const own = JSON.stringify({ object_id: o.objectId, row_no: o.rowNo, action: o.action });
    return image ? `${own.slice(0, -1)},"before_main":${image.main},"before_children":${image.children}}` : own;
  });
  const grids = form.grids.map(
    (grid) => sql`(select ${grid.code}::text || ':' || string_agg(row_to_json(c)::text, '|' order by c."SortKey", c."ObjectId") from ${engineTable(engineCode, grid.table)} as c where c."ParentObjectId" = m."ObjectId")`,
  );
  const text = sql.join([mainRowTextOf(engineCode, form, 'm', columns), sql`coalesce(row_to_json(i)::text, '')`, ...grids]);
  const rows = engineTable(engineCode, 'data_import_rows');
  const objectsTable = engineTable(engineCode, 'data_import_objects');
  await sql`with marks as (
      insert into ${rows} (task_id, row_no, object_id, action)
      select ${taskId}::uuid, row_no, object_id, action from json_populate_recordset(null::${rows}, ${marks}::json)
    )
    insert into ${objectsTable} (task_id, object_id, row_no, action, before_main, before_children, after_hash)
    select ${taskId}::uuid, o.object_id, o.row_no, o.action, o.before_main, o.before_children,
      case when m."ObjectId" is null then '' else encode(sha256(convert_to(concat_ws(E'\\n', ${text}), 'UTF8')), 'base64') end
    from json_populate_recordset(null::${objectsTable}, ${`[${kept.join(',')}]`}::json) as o
    left join ${engineTable(engineCode, form.mainTable)} as m on m."ObjectId" = o.object_id
    left join ${engineTable(engineCode, 'wf_instances')} as i on i.id = m."WorkflowInstanceId"::uuid
    on conflict (task_id, object_id) do update set after_hash = excluded.after_hash`.execute(anyDb(edb));
}
