import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { anyDb, type RuntimeForm } from '../business-data/runtime-form.ts';

// What an import keeps so it can be rolled back (docs/decisions/0031), written in each batch's own transaction:
// the before-image of every record it updates (taken before its first write to the record: the main row and every
// sub-table row, as the database's own JSON, so restoring them gives back the same values to the microsecond) and,
// for every record it created or updated, a fingerprint of the record after the batch (main row, sub-table rows and
// its workflow instance row). A roll back compares the fingerprint with the record as it is then: a different one
// means somebody (or a flow) changed it after the import.

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
      .select([sql<string>`m."ObjectId"::text`.as('id'), sql<string>`row_to_json(m)::text`.as('main'), sql<string | null>`row_to_json(i)::text`.as('instance')])
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
 * At the end of a batch, in its transaction: one row per record the batch wrote. The first write of a task to a
 * record decides its action and keeps its before-image; a later write of the same task only renews the fingerprint.
 */
export async function keepImported(edb: EngineExecutor, form: RuntimeForm, taskId: string, objects: readonly ImportedObject[], images: ReadonlyMap<string, BeforeImage>): Promise<void> {
  if (!objects.length) return;
  const first = new Map<string, ImportedObject>();
  for (const o of objects) if (!first.has(o.objectId)) first.set(o.objectId, o);
  const hashes = await fingerprints(edb, form, [...first.keys()]);
  const rows = [...first.values()].map((o) => {
    const image = o.action === 'update' ? images.get(o.objectId) : undefined;
    return {
      task_id: taskId, object_id: o.objectId, row_no: o.rowNo, action: o.action,
      before_main: image?.main ?? null, before_children: image?.children ?? null, after_hash: hashes.get(o.objectId) ?? '',
    };
  });
  for (let at = 0; at < rows.length; at += 2000) {
    await edb
      .insertInto('data_import_objects')
      .values(rows.slice(at, at + 2000))
      .onConflict((oc) => oc.columns(['task_id', 'object_id']).doUpdateSet({ after_hash: (eb) => eb.ref('excluded.after_hash') }))
      .execute();
  }
}
