import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { FileStore } from '../files/file-store.ts';
import type { FileUrlSigner } from '../files/file-url.ts';
import { insertFile } from '../files/files.repo.ts';
import { storageKeyOf } from '../files/storage-key.ts';
import { newId } from '../../lib/ids.ts';
import { AppError } from '../../lib/app-error.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { engineDb } from '../../db/database.ts';
import type { JobContext } from '../../jobs/job-registry.ts';
import { findTask, type TaskRow } from './task-repo.ts';

// What import and export jobs need around them (docs/decisions/0020): the file store, signed links, batch sizes,
// the task's owner as a caller, and a way to keep a finished workbook as a file of the engine.

export interface DataPortDeps {
  store: FileStore;
  urls: FileUrlSigner;
  /** Records committed per transaction (TRITIUM_IMPORT_BATCH_SIZE, 1000: a batch is a handful of statements whatever its size, docs/decisions/0081). */
  batchSize: number;
  /** Pause after each batch (TRITIUM_IMPORT_BATCH_DELAY_MS; tests slow an import down with it). */
  batchDelayMs: number;
  /** Batches of plain inserts written at once on PostgreSQL (TRITIUM_IMPORT_BATCHES_IN_FLIGHT, 2: docs/decisions/0099). */
  batchesInFlight: number;
  /**
   * An import's .xlsx of at least this many rows is parsed, an export's sheet of as many written, in a worker thread
   * (TRITIUM_XLSX_WORKER_FROM_ROWS, e.g. 5000; unset: never — docs/decisions/0106: with the database on the same two
   * cores a worker added CPU and about 85 MB, and gained nothing).
   */
  workerFromRows: number;
}

export function dataPortSettings(env: NodeJS.ProcessEnv = process.env): Pick<DataPortDeps, 'batchSize' | 'batchDelayMs' | 'batchesInFlight' | 'workerFromRows'> {
  const size = Number(env.TRITIUM_IMPORT_BATCH_SIZE);
  const workerFrom = Number(env.TRITIUM_XLSX_WORKER_FROM_ROWS);
  const inFlight = Number(env.TRITIUM_IMPORT_BATCHES_IN_FLIGHT);
  return {
    batchSize: Number.isInteger(size) && size > 0 ? size : 1000,
    batchDelayMs: Number(env.TRITIUM_IMPORT_BATCH_DELAY_MS ?? 0) || 0,
    batchesInFlight: Number.isInteger(inFlight) && inFlight > 0 ? Math.min(inFlight, 4) : 2,
    workerFromRows: env.TRITIUM_XLSX_WORKER_FROM_ROWS && Number.isInteger(workerFrom) && workerFrom >= 0 ? workerFrom : Number.POSITIVE_INFINITY,
  };
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Big enough for any workbook an export writes. */
const OUTPUT_MAX_BYTES = 2 * 1024 * 1024 * 1024;

/** Stores a workbook written to `path` as a file of the engine (created by the task's owner); answers its id. */
export async function keepWorkbook(edb: EngineExecutor, store: FileStore, engineCode: string, userId: string, path: string, name: string): Promise<string> {
  const id = newId();
  const key = storageKeyOf(engineCode, id);
  const { size } = await store.put(key, createReadStream(path), { maxBytes: Math.max(OUTPUT_MAX_BYTES, (await stat(path)).size + 1) });
  await insertFile(edb, { id, scene: 'attachment', name, size, content_type: XLSX_TYPE, storage_key: key, created_by: userId });
  return id;
}

/** The task's owner as a caller (their rights now, not when they asked): 300001 when they are gone. */
export async function ownerContext(edb: EngineExecutor, base: Pick<NodeContext, 'db' | 'engineCode'>, userId: string): Promise<NodeContext & { deptId: string | null }> {
  const user = await edb.selectFrom('org_users').select(['auth_type', 'state', 'main_department_id']).where('id', '=', userId).executeTakeFirst();
  if (!user || user.state !== 'active') throw new AppError('DataPortTaskNotFound', { message: '任务的创建人已不存在或已停用' });
  return { ...base, userId, authType: user.auth_type, deptId: user.main_department_id };
}

/** A data-port job's task and the caller it runs as (by default the task's owner): 300001 when either is gone. */
export async function taskOfJob(ctx: JobContext, runsAs: (task: TaskRow) => string = (task) => task.created_by) {
  const { taskId } = ctx.payload as { taskId: string };
  const edb = engineDb(ctx.db, ctx.engineCode);
  const task = await findTask(edb, taskId);
  if (!task) throw new AppError('DataPortTaskNotFound');
  return { edb, task, owner: await ownerContext(edb, ctx, runsAs(task)) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
