import { PGliteAdapter } from 'kysely';
import { notify } from '../notification/notify.ts';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { JobContext, JobHandler } from '../../jobs/job-registry.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { viewerOf } from '../function-node/node-context.ts';
import { lockFormData } from '../business-data/records.repo.ts';
import { runtimeFormFor, type RuntimeForm } from '../business-data/runtime-form.ts';
import { findFiles } from '../files/files.repo.ts';
import type { Lookups } from './cell-values.ts';
import { ErrorReport } from './error-report.ts';
import { fileKindOf, readFileRows, type FileRow } from './file-rows.ts';
import { countXlsxRows } from './exceljs-zip-directory.ts';
import { xlsxRowsInWorker } from './xlsx-worker.ts';
import { fileRecords, headersOf, resolveMapping, type FileRecord, type Mapping } from './import-mapping.ts';
import { faultAt, faultsOfError, prepareRecord, recordsByKey, type PreparedRecord, type RecordFaults } from './import-record.ts';
import { batchState, importPlan, NumberQueue, readAssociationsAhead, settle, writeImported, type ImportPlan, type NumberTurns, type Owner } from './import-write.ts';
import { deleteStoredBytes } from '../business-data/record-files.ts';
import { knownReferencesOf, loadLookups } from './lookups.ts';
import { beforeImage, keepImported, mainColumns, type BeforeImage } from './import-images.ts';
import { portColumns } from './port-columns.ts';
import { keepWorkbook, taskOfJob, sleep, type DataPortDeps } from './task-files.ts';
import type { ImportOptions } from './task-repo.ts';

// The import job (docs/decisions/0020). The file is read as a stream and grouped into records; records are
// checked and written in batches, one transaction each, and every record a batch commits is marked
// (data_import_rows: task, file row) in that same transaction. An attempt starts by reading the marks of the
// earlier ones and skips those rows, so a task retried after its server died never writes a row twice. The error
// report is written afresh by every attempt (it re-reads the whole file; rejected rows are never marked).

export const DATA_IMPORT_JOB = 'data.import';

interface Run {
  ctx: JobContext;
  edb: EngineExecutor;
  form: RuntimeForm;
  owner: Owner;
  plan: ImportPlan;
  mapping: Mapping;
  lookups: Lookups;
  options: ImportOptions;
  report: ErrorReport;
  /** The main table's columns less the lowered twins: the fingerprints' text without a regular expression (0133). */
  columns: string[];
}

export function dataImportHandler(deps: DataPortDeps): JobHandler {
  return {
    async run(ctx) {
      const { edb, task, owner } = await taskOfJob(ctx);
      const taskId = task.id;
      const form = await runtimeFormFor(edb, await viewerOf(edb, owner), task.schema_code);
      const [file] = await findFiles(edb, [task.file_id!]);
      const source = file ? await deps.store.get(file.storage_key) : undefined;
      const kind = file ? fileKindOf(file.name, file.content_type) : null;
      if (!file || !source || !kind) throw new AppError('DataPortFileUnreadable');
      // A first pass counts the data rows (progress is rows done / rows in the file): an .xlsx by its first sheet's
      // row tags, without parsing it (issue 26), a .csv by reading it.
      let fileRows = 0;
      if (kind === 'xlsx') fileRows = (await countXlsxRows(source)) ?? 0;
      else for await (const _row of readFileRows(source, kind)) fileRows++;
      const again = await deps.store.get(file.storage_key);
      if (!again) throw new AppError('DataPortFileUnreadable');
      // A large .xlsx is parsed on the second core while this thread checks and writes (docs/decisions/0106).
      const rows = (kind === 'xlsx' && fileRows >= deps.workerFromRows ? xlsxRowsInWorker(again) : readFileRows(again, kind))[Symbol.asyncIterator]();
      try {
        return await importRows(ctx, deps, { taskId, task, owner, edb, form, fileRows }, rows);
      } finally {
        // Ends the reader (and its worker) whatever happened, the mapping refused included.
        await rows.return?.(undefined);
      }
    },
  };
}

interface Task {
  taskId: string;
  task: Awaited<ReturnType<typeof taskOfJob>>['task'];
  owner: Owner;
  edb: EngineExecutor;
  form: RuntimeForm;
  fileRows: number;
}

async function importRows(ctx: JobContext, deps: DataPortDeps, { taskId, task, owner, edb, form, fileRows }: Task, rows: AsyncIterator<FileRow>) {
  const header = await rows.next();
  const headers = headersOf(header.done ? undefined : header.value);
  const options = task.options as ImportOptions;
  const mapping = resolveMapping(form, headers, options.mapping, options.keyField);
  const marks = await edb.selectFrom('data_import_rows').select('row_no').where('task_id', '=', taskId).execute();
  const committed = new Set(marks.map((m) => m.row_no));
  const plan = await importPlan(edb, form, options.dataState ?? 'Draft');
  const run: Run = { ctx, edb, form, owner, plan, mapping, lookups: await loadLookups(edb), options, report: new ErrorReport(headers), columns: await mainColumns(edb, ctx.engineCode, form) };
  const rest: AsyncIterable<FileRow> = { [Symbol.asyncIterator]: () => rows };
  let total = 0;
  let rejected = 0;
  let rowsDone = 0;
  try {
    // The next batch is read and grouped from the file while the previous one is written (issue 26): reading
    // the file is CPU work, writing a batch mostly waiting on the database. With batches in flight
    // (docs/decisions/0099) up to that many are written at once, each in its own transaction; their rejected rows
    // and progress still go out in file order, and a failed batch fails the job once the later ones have ended.
    const inFlight = batchesInFlight(run, deps);
    const numbers = inFlight > 1 ? new NumberQueue(engineDb(ctx.db as unknown as Db, ctx.engineCode)) : undefined;
    let batch: FileRecord[] = [];
    const started: Promise<void>[] = [];
    let last: Promise<void> = Promise.resolve();
    const flush = async () => {
      const records = batch;
      batch = [];
      while (started.length >= inFlight) await started.shift();
      const turn = numbers?.turn();
      const previous = last;
      const done = rowsDone;
      const seen = total;
      const mine = (async () => {
        let outcome: BatchOutcome;
        try {
          outcome = await commitBatch(run, records, deps, turn);
        } finally {
          turn?.taken();
        }
        await previous;
        const refused = await reportRejected(run, records, outcome);
        rejected += refused;
        await ctx.reportProgress(Math.min(95, (done / Math.max(1, fileRows - 1)) * 95), `已处理 ${seen} 条`);
        if (deps.batchDelayMs > 0) await sleep(deps.batchDelayMs);
      })();
      // Awaited before the next batches or the end; a failure is not "unhandled" meanwhile.
      mine.catch(() => undefined);
      last = mine;
      started.push(mine);
    };
    try {
      for await (const record of fileRecords(rest, mapping)) {
        total++;
        rowsDone = record.rows[record.rows.length - 1]!.rowNo - 1;
        if (committed.has(record.rowNo)) continue;
        batch.push(record);
        if (batch.length >= deps.batchSize) await flush();
      }
      if (batch.length) await flush();
    } finally {
      // A read that failed waits for the batches being written (they end as they would have) before the job fails.
      await Promise.allSettled(started);
    }
    await last;
    const reportPath = await run.report.finish();
    const reportId = reportPath ? await keepWorkbook(edb, deps.store, ctx.engineCode, owner.userId, reportPath, `导入错误报告-${form.definition.attributes.displayName}.xlsx`) : null;
    const counts = await edb
      .selectFrom('data_import_rows')
      .select((eb) => [eb.fn.countAll<number>().filterWhere('action', '=', 'insert').as('inserted'), eb.fn.countAll<number>().filterWhere('action', '=', 'update').as('updated')])
      .where('task_id', '=', taskId)
      .executeTakeFirstOrThrow();
    const result = { total, inserted: Number(counts.inserted), updated: Number(counts.updated), rejected };
    await edb.updateTable('data_port_tasks').set({ ...result, report_file_id: reportId }).where('id', '=', taskId).execute();
    await notify(edb, ctx.engineCode, [owner.userId], {
      category: 'dataport',
      title: `导入完成：${form.definition.attributes.displayName}`,
      content: `共 ${total} 条：新增 ${result.inserted}，更新 ${result.updated}，失败 ${rejected}`,
    });
    return result;
  } finally {
    await run.report.dispose();
  }
}

/**
 * Batches written at once: up to deps.batchesInFlight on PostgreSQL for plain inserts (no key to match, no NoRepeat
 * field, no save hooks, no flow), else one: a key lookup or a NoRepeat check must see the earlier batch's records, and
 * PGlite has one connection for every transaction.
 */
function batchesInFlight(run: Run, deps: DataPortDeps): number {
  const { form, plan, mapping } = run;
  if (deps.batchesInFlight <= 1 || run.ctx.db.getExecutor().adapter instanceof PGliteAdapter) return 1;
  if (mapping.key || plan.hooks || plan.dataState === 'Processing' || form.isWorkflow) return 1;
  if (form.fields.some((f) => f.options.noRepeat === true)) return 1;
  return deps.batchesInFlight;
}

interface BatchOutcome {
  faults: RecordFaults;
}

/**
 * Checks and writes one batch in one transaction. With `numbers` its sequence numbers are taken outside the
 * transaction, in its turn (docs/decisions/0099).
 */
async function commitBatch(run: Run, batch: FileRecord[], deps: DataPortDeps, numbers?: NumberTurns): Promise<BatchOutcome> {
  const { form, mapping, options } = run;
  const faults: RecordFaults = new Map();
  const prepared = new Map<FileRecord, PreparedRecord>();
  for (const record of batch) {
    const p = prepareRecord(form, record, mapping, run.lookups, faults);
    if (!record.rows.some((r) => faults.has(r.rowNo))) prepared.set(record, p);
  }
  const names = new Map(portColumns(form).map((c) => [c.code, c.header]));
  const nameOf = (code: string) => names.get(code) ?? code;
  const dropped = await run.ctx.db.transaction().execute(async (trx) => {
    const tdb = engineDb(trx as unknown as Db, run.ctx.engineCode);
    if (form.fields.some((f) => f.options.noRepeat === true)) await lockFormData(tdb, run.ctx.engineCode, form.node.code);
    const b = { ...batchState(tdb, form, run.owner, run.plan, new Date(), numbers), known: knownReferencesOf(run.lookups) };
    // The batch's chosen associations in one read, not one a record (docs/decisions/0135).
    await readAssociationsAhead(b, [...prepared.values()]);
    const marks: { task_id: string; row_no: number; object_id: string; action: 'insert' | 'update' }[] = [];
    // Before-images of the records this batch updates, for a roll back (docs/decisions/0031).
    const images = new Map<string, BeforeImage>();
    for (const [record, input] of prepared) {
      const at = () => faultAt(faults, record.rowNo);
      let old;
      if (mapping.key) {
        if (b.buffer.size) await b.buffer.flush(tdb);
        const found = await recordsByKey(tdb, form, mapping, input.keyValue);
        if (found.length > 1) at().cells.set(mapping.key.index, '匹配到多条数据');
        else if (found.length === 1 && options.importType === 'InsertOnly') at().cells.set(mapping.key.index, '数据已存在（仅新增）');
        else if (!found.length && options.importType === 'UpdateOnly') at().cells.set(mapping.key.index, '没有匹配的数据（仅更新）');
        old = found[0];
      }
      if (!faults.has(record.rowNo)) {
        try {
          const oldId = old ? String(old.ObjectId) : undefined;
          if (oldId && !images.has(oldId)) {
            if (b.buffer.size) await b.buffer.flush(tdb);
            const image = await beforeImage(tdb, form, oldId);
            if (image) images.set(oldId, image);
          }
          const objectId = await writeImported(b, input, old);
          marks.push({ task_id: run.ctx.jobId, row_no: record.rowNo, object_id: objectId, action: old ? 'update' : 'insert' });
        } catch (error) {
          faultsOfError(error, record, mapping, faults, nameOf);
        }
      }
    }
    await settle(b);
    await keepImported(tdb, run.ctx.engineCode, form, run.ctx.jobId, marks.map((m) => ({ objectId: m.object_id, rowNo: m.row_no, action: m.action })), images, run.columns);
    // Last, just before the commit: a swept attempt cannot commit, and the job's row stays locked only for the
    // commit (taken first, it would hold a batch in flight behind the other's whole transaction, 0099).
    await run.ctx.assertOwned(trx as unknown as Db);
    return b.dropped;
  });
  await deleteStoredBytes(deps, dropped);
  return { faults };
}

/** The batch's rejected records to the error report (in file order: batches report one after another). Answers how many. */
async function reportRejected(run: Run, batch: FileRecord[], { faults }: BatchOutcome): Promise<number> {
  let rejected = 0;
  for (const record of batch) {
    if (!record.rows.some((r) => faults.has(r.rowNo))) continue;
    rejected++;
    for (const row of record.rows) await run.report.add(row, faults.get(row.rowNo) ?? { cells: new Map(), general: [] });
  }
  return rejected;
}
