import { sql } from 'kysely';
import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import type { BackgroundTaskState, ExportState } from '@tritium/shared/constants/tasks';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { enqueueJob } from '../../jobs/job-runner.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import { assertCan } from '../permission/form-rights.ts';
import { findFiles } from '../files/files.repo.ts';
import { queryRecords } from '../query/query.service.ts';
import { previewText } from './cell-values.ts';
import { DATA_EXPORT_JOB } from './export.job.ts';
import { fileKindOf, readFileRows, type FileRow } from './file-rows.ts';
import { DATA_IMPORT_JOB } from './import.job.ts';
import { headersOf, resolveMapping } from './import-mapping.ts';
import { assertImportable, importDataState } from './import-write.ts';
import { exportNarrowing, viewColumnCodes } from './export-view.ts';
import { exportColumnsOf, portColumns, presentColumn } from './port-columns.ts';
import { templateWorkbook } from './import-template.ts';
import { isSampleRow } from './template-sample.ts';
import type { DataPortDeps } from './task-files.ts';
import { findTask, insertTask, type TaskRow } from './task-repo.ts';
import { retryUnlessRolledBack, rollbackOffered, rollbackStates } from './import-rollback.ts';

// The calls of calls.md §7 "Import and export" (docs/decisions/0020). A task is the caller's: another user of the
// engine, and every other engine, does not see it (300001). Import and export need the form to be open to the
// caller (230001 otherwise), as reading and creating its records do.

type Out<T extends z.ZodType> = z.output<T>;

/** The caller's own uploaded spreadsheet: its row, bytes and kind (260001 / 300004 otherwise). */
async function openUpload(ctx: NodeContext, deps: Pick<DataPortDeps, 'store'>, fileId: string) {
  const [file] = await findFiles(engineOf(ctx), [fileId]);
  if (!file || file.created_by !== ctx.userId) throw new AppError('FileNotFound', { detail: { fileId } });
  const kind = fileKindOf(file.name, file.content_type);
  const body = kind ? await deps.store.get(file.storage_key) : undefined;
  if (!kind || !body) throw new AppError('DataPortFileUnreadable', { detail: { fileId } });
  return { file, rows: readFileRows(body, kind) };
}

async function firstRows(rows: AsyncGenerator<FileRow>, n: number): Promise<FileRow[]> {
  const out: FileRow[] = [];
  try {
    for await (const row of rows) {
      out.push(row);
      if (out.length >= n) break;
    }
  } catch {
    throw new AppError('DataPortFileUnreadable');
  }
  if (!out.length || !headersOf(out[0]).some(Boolean)) throw new AppError('DataPortFileEmpty');
  return out;
}

/** POST /v1/dataImport/preview */
export async function previewImport(ctx: NodeContext, deps: Pick<DataPortDeps, 'store'>, body: { schemaCode: string; fileId: string }): Promise<contracts.ImportPreviewResult> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  assertCan(form.rights, 'import');
  const { rows } = await openUpload(ctx, deps, body.fileId);
  const [header, ...read] = await firstRows(rows, 12);
  const data = read.filter((r) => !isSampleRow(r) && r.cells.some((c) => previewText(c) !== '')).slice(0, 10);
  const headers = headersOf(header);
  let mapping: contracts.ImportPreviewResult['mapping'] = [];
  try {
    mapping = resolveMapping(form, headers, undefined).columns.map((c) => ({ column: c.header, field: c.column.code }));
  } catch {
    // Nothing matched by name: the wizard maps by hand.
  }
  return { headers, rows: data.map((r) => headers.map((_h, i) => previewText(r.cells[i] ?? null))), mapping };
}

/** POST /v1/dataImport/addImportTask: checks the form, the file's header and the mapping, then queues the job. */
export async function addImportTask(ctx: NodeContext, deps: Pick<DataPortDeps, 'store'>, body: Out<typeof contracts.AddImportTaskBody>): Promise<{ taskId: string }> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  assertCan(form.rights, 'import');
  const dataState = await importDataState(engineOf(ctx), form, body.dataState);
  await assertImportable(engineOf(ctx), form, dataState);
  const { file, rows } = await openUpload(ctx, deps, body.fileId);
  const [header] = await firstRows(rows, 1);
  resolveMapping(form, headersOf(header), body.mapping, body.keyField);
  const options = { importType: body.importType ?? 'InsertOnly', dataState, keyField: body.keyField, mapping: body.mapping };
  return queue(ctx, 'Import', form.node.code, options, { file_id: file.id, file_name: file.name });
}

/** POST /v1/dataExport/addExportTask: the filter, sort and columns are checked now (777 / 300010), the rows later. */
export async function addExportTask(ctx: NodeContext, body: Out<typeof contracts.AddExportTaskBody>, baseUrl: string): Promise<{ taskId: string }> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  assertCan(form.rights, 'export');
  exportColumnsOf(form, body.columns);
  const query = await exportNarrowing(ctx, { schemaCode: form.node.code, filter: body.filter, sort: body.sort, viewCode: body.viewCode, keyword: body.keyword });
  await queryRecords(ctx, { ...query, status: body.status, pageIndex: 0, pageSize: 1 });
  const options = { filter: body.filter, status: body.status, columns: body.columns, sort: body.sort, viewCode: body.viewCode, keyword: body.keyword, baseUrl };
  return queue(ctx, 'Export', form.node.code, options, { file_name: `${form.definition.attributes.displayName}.xlsx` });
}

async function queue(ctx: NodeContext, type: 'Import' | 'Export', schemaCode: string, options: object, extra: { file_id?: string; file_name: string }) {
  const taskId = await ctx.db.transaction().execute(async (trx) => {
    const id = await enqueueJob(trx as unknown as Db, { engineCode: ctx.engineCode, kind: type === 'Import' ? DATA_IMPORT_JOB : DATA_EXPORT_JOB, payload: { taskId: '' }, createdBy: ctx.userId });
    await trx.updateTable('platform.jobs').set({ payload: JSON.stringify({ taskId: id }) }).where('id', '=', id).execute();
    await insertTask(engineOf({ db: trx as unknown as Db, engineCode: ctx.engineCode }), { id, type, schema_code: schemaCode, created_by: ctx.userId, options: options as never, ...extra });
    return id;
  });
  return { taskId };
}

const EXPORT_STATE: Record<string, ExportState> = { Waiting: 'Waiting', Queuing: 'Waiting', Running: 'Exporting', Finished: 'Success', Failed: 'Fail', Timeout: 'Fail', Canceled: 'Cancel', Suspend: 'Waiting' };

type JobRow = { id: string; state: string; progress: number; message: string | null; attempts: number; finished_time: Date | null };

function presentTask(task: TaskRow, job: JobRow | undefined, rollback?: contracts.ImportRollbackDto): contracts.DataPortTaskDto {
  const state = (job?.state ?? 'Failed') as BackgroundTaskState;
  const options = task.options as { importType?: string; dataState?: string };
  const isImport = task.type === 'Import';
  return {
    taskId: task.id,
    type: task.type as 'Import' | 'Export',
    schemaCode: task.schema_code,
    state,
    exportState: isImport ? null : EXPORT_STATE[state]!,
    importType: isImport ? ((options.importType ?? 'InsertOnly') as contracts.DataPortTaskDto['importType']) : null,
    dataState: isImport ? ((options.dataState ?? 'Draft') as contracts.DataPortTaskDto['dataState']) : null,
    progress: job?.progress ?? 0,
    message: job?.message ?? null,
    fileName: task.file_name,
    total: task.total,
    inserted: task.inserted,
    updated: task.updated,
    rejected: task.rejected,
    attempts: job?.attempts ?? 0,
    createdTime: new Date(task.created_time).toISOString(),
    finishedTime: job?.finished_time ? new Date(job.finished_time).toISOString() : null,
    hasResult: !!task.result_file_id,
    hasErrorReport: !!task.report_file_id,
    rollback: isImport ? (rollback ?? null) : null,
    rollbackOffered: rollbackOffered(task, state, rollback),
  };
}

async function jobsOf(ctx: NodeContext, ids: string[]): Promise<Map<string, JobRow>> {
  if (!ids.length) return new Map();
  const rows = await ctx.db.selectFrom('platform.jobs').select(['id', 'state', 'progress', 'message', 'attempts', 'finished_time']).where('id', 'in', ids).where('engine_code', '=', ctx.engineCode).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** POST /v1/dataPort/LoadTaskRecords: the caller's tasks of the last RecentHours, newest first, a page at a time. */
export async function loadTaskRecords(ctx: NodeContext, body: Out<typeof contracts.LoadTaskRecordsBody>): Promise<contracts.LoadTaskRecordsResult> {
  let q = engineOf(ctx)
    .selectFrom('data_port_tasks')
    .where('created_by', '=', ctx.userId)
    .where('created_time', '>', sql<Date>`now() - ${`${body.RecentHours} hours`}::interval`);
  if (body.Type) q = q.where('type', '=', body.Type);
  if (body.TaskIds?.length) q = q.where('id', 'in', body.TaskIds);
  if (body.SchemaCode) q = q.where(sql`lower(schema_code)`, '=', body.SchemaCode.toLowerCase());
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const tasks = await q.selectAll().orderBy('created_time', 'desc').orderBy('id', 'desc').limit(body.PageSize).offset((body.PageIndex - 1) * body.PageSize).execute();
  const jobs = await jobsOf(ctx, tasks.map((t) => t.id));
  const rollbacks = await rollbackStates(ctx, tasks);
  return { list: tasks.map((t) => presentTask(t, jobs.get(t.id), rollbacks.get(t.id))), total: Number(n) };
}

/** The caller's task (of `type` when given); 300001 otherwise. */
async function ownTask(ctx: NodeContext, id: string, type?: string): Promise<TaskRow> {
  const task = await findTask(engineOf(ctx), id);
  if (!task || task.created_by !== ctx.userId || (type && task.type !== type)) throw new AppError('DataPortTaskNotFound', { detail: { taskId: id } });
  return task;
}

export async function getTask(ctx: NodeContext, id: string): Promise<contracts.DataPortTaskDto> {
  const task = await ownTask(ctx, id);
  return presentTask(task, (await jobsOf(ctx, [id])).get(id), (await rollbackStates(ctx, [task])).get(id));
}

/** GET /v1/dataPort/CancelWaitingTask/{type}/{taskId}: only a Waiting task (300002). */
export async function cancelWaitingTask(ctx: NodeContext, type: string, id: string): Promise<contracts.DataPortTaskDto> {
  await ownTask(ctx, id, type);
  const r = await ctx.db
    .updateTable('platform.jobs')
    .set({ state: 'Canceled', finished_time: sql`now()`, message: '已取消' })
    .where('id', '=', id)
    .where('engine_code', '=', ctx.engineCode)
    .where('state', '=', 'Waiting')
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new AppError('DataPortTaskNotCancellable', { detail: { taskId: id } });
  return getTask(ctx, id);
}

/** POST /v1/dataPort/RetryTimeoutTasks: every task named must be the caller's and Timeout (300003), then all go back to Waiting. */
export async function retryTimeoutTasks(ctx: NodeContext, ids: string[]): Promise<{ retried: string[] }> {
  for (const id of ids) await ownTask(ctx, id);
  const jobs = await jobsOf(ctx, ids);
  const stuck = ids.filter((id) => jobs.get(id)?.state !== 'Timeout');
  if (stuck.length) throw new AppError('DataPortTaskNotRetryable', { detail: { taskIds: stuck } });
  const retried: string[] = [];
  // A task with a roll back is never retried (300104): checked under the job's row lock, as the roll back locks it.
  for (const id of ids) if (await retryUnlessRolledBack(ctx, id)) retried.push(id);
  return { retried };
}

/** POST /v1/dataPort/getDownloadUrl: a signed link (ten minutes) to the export's workbook or the import's error report. */
export async function downloadUrl(ctx: NodeContext, deps: Pick<DataPortDeps, 'urls'>, body: { taskId: string; kind: 'Result' | 'ErrorReport' }) {
  const task = await ownTask(ctx, body.taskId);
  const fileId = body.kind === 'Result' ? task.result_file_id : task.report_file_id;
  const [file] = fileId ? await findFiles(engineOf(ctx), [fileId]) : [];
  if (!file) throw new AppError('DataPortNoDownload', { detail: { taskId: body.taskId, kind: body.kind } });
  return { url: `${deps.urls.sign(ctx.engineCode, file.id).url}&download=1`, fileName: file.name };
}

/**
 * GET /v2/dataPort/getExportColumns/{schemaCode}/{viewCode}: every column, `selected` the ones an export writes by
 * default — the view's columns in its order when viewCode names a list view of the form (else the default set).
 */
export async function exportColumns(ctx: NodeContext, schemaCode: string, viewCode?: string): Promise<contracts.ExportColumnsResult> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  const viewed = await viewColumnCodes(engineOf(ctx), form, viewCode);
  const chosen = viewed ?? exportColumnsOf(form, undefined).map((c) => c.code);
  const all = portColumns(form);
  const order = new Map(chosen.map((code, i) => [code, i]));
  // A view's columns come first, in its order (the order its export writes them); otherwise the form's order.
  const first = viewed ? chosen.map((code) => all.find((c) => c.code === code)!).filter(Boolean) : [];
  const rest = all.filter((c) => !first.includes(c));
  return { columns: [...first, ...rest].map((c) => ({ ...presentColumn(c), selected: order.has(c.code) })), viewCode: viewed ? viewCode! : null };
}

/** GET /v1/dataImport/template/{schemaCode}: the importable columns, a sample row and drop-down lists (import-template.ts). */
export async function importTemplate(ctx: NodeContext, schemaCode: string): Promise<{ name: string; body: Buffer }> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  assertCan(form.rights, 'import');
  return templateWorkbook(form);
}

