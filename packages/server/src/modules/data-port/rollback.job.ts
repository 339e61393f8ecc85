import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/types.ts';
import { engineDb, engineSchemaName } from '../../db/database.ts';
import type { JobContext, JobHandler } from '../../jobs/job-registry.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { runtimeFormFor, type RuntimeForm } from '../business-data/runtime-form.ts';
import { findRecord, type RecordRow } from '../business-data/records.repo.ts';
import { deleteStoredBytes } from '../business-data/record-files.ts';
import { presentValues } from '../business-data/record.presenter.ts';
import { childrenOfRecord } from '../business-data/record-rollups.ts';
import { changesOf, writeDataLog } from '../business-data/data-log.ts';
import { afterRecordSaved, beforeRecordRemoved } from '../business-rules/record-hooks.ts';
import { publishedRulesOf } from '../business-rules/business-rules.repo.ts';
import { deleteFiles } from '../files/files.repo.ts';
import { hasChildInstances, removeInstances } from '../workflow/instance-removal.ts';
import { fingerprints } from './import-images.ts';
import { writableColumnsOf } from '../form-design/trigram-indexes.ts';
import { taskOfJob, sleep, type DataPortDeps } from './task-files.ts';

// Rolling back an import (issue 17, docs/decisions/0031), a job of the platform runner. It walks the records the
// import wrote (data_import_objects), last written first, in batches of one transaction each; every record's
// outcome is marked in the same transaction, so a roll back that died goes on where it stopped when asked again.
// - A record the import created is removed as a removal removes it (its files, its workflow instance with its
//   items, comments and reminders; void rules when Effective and the rollups that read it, only when the form has
//   rules or dependants), and its data-log entries go with it. Its sequence number is not given back.
// - A record the import updated gets its before-image back: main row and sub-table rows exactly as they were
//   (ModifiedTime and ids included); an instance the import gave it is removed; the rollups that read it are
//   refreshed; the data log gets one entry with the changes back.
// - A record whose fingerprint differs from the one the import left (somebody edited, approved or removed it
//   after the import) is not touched: `refused` with a note, listed in the roll back's report.

export const DATA_IMPORT_ROLLBACK_JOB = 'data.import.rollback';

export type RollbackOutcome = 'deleted' | 'restored' | 'refused' | 'gone';

interface Pass {
  ctx: JobContext;
  actor: NodeContext;
  form: RuntimeForm;
  taskId: string;
  /** Removals go one by one through the removal hooks (rules, rollups of other forms). */
  hooks: boolean;
  /** The main table's columns a before-image is written back to; null: all (no lowered twins, decision 0103). */
  columns: string[] | null;
}

/** Batches are as big as an import's (TRITIUM_IMPORT_BATCH_SIZE) and paused alike (TRITIUM_IMPORT_BATCH_DELAY_MS). */
export function importRollbackHandler(deps: Pick<DataPortDeps, 'store' | 'batchSize' | 'batchDelayMs'>): JobHandler {
  return {
    async run(ctx) {
      const { edb, task, owner: actor } = await taskOfJob(ctx, (task) => task.rollback_by ?? ctx.createdBy ?? task.created_by);
      const taskId = task.id;
      const form = await runtimeFormFor(edb, await viewerOf(edb, actor), task.schema_code);
      const rules = await publishedRulesOf(edb, form.node.code);
      const dependants = await edb.selectFrom('form_dependencies').select('schema_code').where('depends_on', '=', form.node.code).where('kind', '=', 'rollup').limit(1).execute();
      const columns = form.folded.size ? await writableColumnsOf(edb, engineSchemaName(ctx.engineCode), form.mainTable) : null;
      const pass: Pass = { ctx, actor, form, taskId, hooks: rules.length > 0 || dependants.length > 0, columns };
      const count = async (open: boolean) => {
        let q = edb.selectFrom('data_import_objects').select((eb) => eb.fn.countAll<number>().as('n')).where('task_id', '=', taskId);
        q = open ? q.where('rollback', 'is', null) : q;
        return Number((await q.executeTakeFirstOrThrow()).n);
      };
      const total = await count(false);
      const size = Math.max(1, deps.batchSize);
      for (;;) {
        const open = await count(true);
        await ctx.reportProgress(total ? ((total - open) / total) * 95 : 95, `已回滚 ${total - open} / ${total} 条`);
        if (!open) break;
        const dropped = await rollBackBatch(pass, size);
        await deleteStoredBytes(deps, dropped);
        if (deps.batchDelayMs > 0) await sleep(deps.batchDelayMs);
      }
      const rows = await edb.selectFrom('data_import_objects').select(['rollback', (eb) => eb.fn.countAll<number>().as('n')]).where('task_id', '=', taskId).groupBy('rollback').execute();
      const result = { deleted: 0, restored: 0, refused: 0, gone: 0 };
      for (const r of rows) if (r.rollback && r.rollback in result) result[r.rollback as RollbackOutcome] = Number(r.n);
      return result;
    },
  };
}

type ObjectRow = { object_id: string; action: string; before_main: unknown; before_children: unknown; after_hash: string };

/** One transaction: the next `size` records, each deleted, restored or refused, and marked. Answers storage keys to delete. */
async function rollBackBatch(pass: Pass, size: number): Promise<string[]> {
  const { ctx, form, taskId } = pass;
  return ctx.db.transaction().execute(async (trx) => {
    const tdb = engineDb(trx as unknown as Db, ctx.engineCode);
    await ctx.assertOwned(trx as unknown as Db);
    const rows: ObjectRow[] = await tdb
      .selectFrom('data_import_objects')
      .select(['object_id', 'action', 'before_main', 'before_children', 'after_hash'])
      .where('task_id', '=', taskId)
      .where('rollback', 'is', null)
      .orderBy('row_no', 'desc')
      .limit(size)
      .execute();
    const ids = rows.map((r) => r.object_id);
    // The rows stay locked until the batch commits: nobody edits them between the check and the roll back.
    await (tdb as unknown as Kysely<any>).selectFrom(form.mainTable).select('ObjectId').where('ObjectId', 'in', ids).forUpdate().execute();
    const now = await fingerprints(tdb, form, ids);
    const outcomes = new Map<string, { outcome: RollbackOutcome; note: string | null }>();
    const removable: string[] = [];
    for (const row of rows) {
      const current = now.get(row.object_id);
      if (current === undefined) outcomes.set(row.object_id, row.action === 'insert' ? { outcome: 'gone', note: '导入后已被删除' } : { outcome: 'refused', note: '导入后已被删除，无法恢复' });
      else if (current !== row.after_hash) outcomes.set(row.object_id, { outcome: 'refused', note: '导入后已被修改（编辑、流程处理或业务规则），未回滚' });
      else if (row.action === 'insert') removable.push(row.object_id);
    }
    const dropped: string[] = [];
    for (const objectId of await withoutChildFlows(tdb, form, removable, outcomes)) outcomes.set(objectId, { outcome: 'deleted', note: null });
    const deleting = [...outcomes].filter(([, o]) => o.outcome === 'deleted').map(([id]) => id);
    dropped.push(...(await removeCreated(pass, tdb, deleting)));
    for (const row of rows) {
      if (outcomes.has(row.object_id)) continue;
      const refusal = await restoreUpdated(pass, tdb, row, dropped);
      outcomes.set(row.object_id, refusal ? { outcome: 'refused', note: refusal } : { outcome: 'restored', note: null });
    }
    for (const [outcome, group] of groupBy(outcomes)) {
      for (const [note, objectIds] of group) {
        await tdb.updateTable('data_import_objects').set({ rollback: outcome, rollback_note: note }).where('task_id', '=', taskId).where('object_id', 'in', objectIds).execute();
      }
    }
    return dropped;
  });
}

function groupBy(outcomes: Map<string, { outcome: RollbackOutcome; note: string | null }>): Map<RollbackOutcome, Map<string | null, string[]>> {
  const out = new Map<RollbackOutcome, Map<string | null, string[]>>();
  for (const [id, { outcome, note }] of outcomes) {
    const byNote = out.get(outcome) ?? new Map<string | null, string[]>();
    out.set(outcome, byNote);
    byNote.set(note, [...(byNote.get(note) ?? []), id]);
  }
  return out;
}

/** Created records whose flow started child flows (records of other forms) are refused; the others answered. */
async function withoutChildFlows(tdb: EngineExecutor, form: RuntimeForm, ids: string[], outcomes: Map<string, { outcome: RollbackOutcome; note: string | null }>): Promise<string[]> {
  if (!form.isWorkflow || !ids.length) return ids;
  const parents = await tdb.selectFrom('wf_instances as c').innerJoin('wf_instances as p', 'p.id', 'c.parent_instance_id').select('p.object_id').where('p.schema_code', '=', form.node.code).where('p.object_id', 'in', ids).execute();
  const held = new Set(parents.map((p) => p.object_id));
  for (const id of held) outcomes.set(id, { outcome: 'refused', note: '流程已发起子流程，未回滚' });
  return ids.filter((id) => !held.has(id));
}

/** Removes records the import created: rows, sub-table rows, files, instance, data log. Answers storage keys. */
async function removeCreated(pass: Pass, tdb: EngineExecutor, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const { form, actor } = pass;
  const dropped: string[] = [];
  const db = tdb as unknown as Kysely<any>;
  const instances = form.isWorkflow ? (await tdb.selectFrom('wf_instances').select('id').where('schema_code', '=', form.node.code).where('object_id', 'in', ids).execute()).map((r) => r.id) : [];
  if (pass.hooks) {
    for (const id of ids) {
      const row = (await findRecord(tdb, form, id))!;
      const removal = await beforeRecordRemoved(tdb, actor, form, row);
      await db.deleteFrom(form.mainTable).where('ObjectId', '=', id).execute();
      dropped.push(...(await removal.afterRemoved()));
    }
  } else {
    // Sub-table rows go with their record (foreign key on delete cascade).
    await db.deleteFrom(form.mainTable).where('ObjectId', 'in', ids).execute();
  }
  const files = await tdb.selectFrom('files').select('id').where('schema_code', '=', form.node.code).where('object_id', 'in', ids).execute();
  dropped.push(...(await deleteFiles(tdb, files.map((f) => f.id))));
  await removeInstances(tdb, instances);
  await tdb.deleteFrom('form_data_logs').where('schema_code', '=', form.node.code).where('object_id', 'in', ids).execute();
  return dropped;
}

const parsed = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

/** Puts an updated record's before-image back; answers a refusal note, or undefined when restored. */
async function restoreUpdated(pass: Pass, tdb: EngineExecutor, row: ObjectRow, dropped: string[]): Promise<string | undefined> {
  const { form, actor, ctx } = pass;
  const current = (await findRecord(tdb, form, row.object_id))!;
  const before = parsed(row.before_main) as RecordRow | null;
  if (!before) return '没有导入前的数据，未回滚';
  const currentInstance = current.WorkflowInstanceId ? String(current.WorkflowInstanceId) : null;
  const addedInstance = currentInstance && currentInstance !== (before.WorkflowInstanceId ?? null) ? currentInstance : null;
  if (addedInstance && (await hasChildInstances(tdb, addedInstance))) return '流程已发起子流程，未回滚';
  const currentChildren = await childrenOfRecord(tdb, form, row.object_id);
  const schema = engineSchemaName(ctx.engineCode);
  // Delete and insert the exact rows (the database's own JSON back into the table's row type: every column as it was).
  await (tdb as unknown as Kysely<any>).deleteFrom(form.mainTable).where('ObjectId', '=', row.object_id).execute();
  // The lowered twins are generated: they take no value, and follow the columns written back.
  const columns = pass.columns ? sql`(${sql.join(pass.columns.map((c) => sql.id(c)))})` : sql``;
  const read = pass.columns ? sql.join(pass.columns.map((c) => sql.id(c))) : sql`*`;
  await sql`insert into ${sql.table(`${schema}.${form.mainTable}`)} ${columns} select ${read} from jsonb_populate_record(null::${sql.table(`${schema}.${form.mainTable}`)}, ${JSON.stringify(before)}::jsonb)`.execute(tdb);
  const children = (parsed(row.before_children) ?? {}) as Record<string, unknown[]>;
  for (const grid of form.grids) {
    const rows = children[grid.code];
    if (!rows?.length) continue;
    await sql`insert into ${sql.table(`${schema}.${grid.table}`)} select * from jsonb_populate_recordset(null::${sql.table(`${schema}.${grid.table}`)}, ${JSON.stringify(rows)}::jsonb)`.execute(tdb);
  }
  if (addedInstance) await removeInstances(tdb, [addedInstance]);
  const restored = (await findRecord(tdb, form, row.object_id))!;
  const values = presentValues(form.fields, restored);
  dropped.push(...(await afterRecordSaved(tdb, actor, form, { objectId: row.object_id, before: current, status: Number(restored.Status), values })));
  if (form.definition.attributes.enableDataLog) {
    const restoredChildren = await childrenOfRecord(tdb, form, row.object_id);
    const checked = { values, children: new Map(Object.entries(restoredChildren).map(([code, rows]) => [code, rows.map(({ ObjectId: _id, ...rest }) => ({ values: rest }))])) };
    const changes = changesOf(form, presentValues(form.fields, current), checked as never, currentChildren);
    if (changes.length) await writeDataLog(tdb, form, row.object_id, actor.userId, changes);
  }
  return undefined;
}
