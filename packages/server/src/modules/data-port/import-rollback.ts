import type { contracts } from '@tritium/shared';
import type { BackgroundTaskState } from '@tritium/shared/constants/tasks';
import { UserAuthType } from '@tritium/shared/constants/org';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { enqueueJob, retryJob } from '../../jobs/job-runner.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { engineDb } from '../../db/database.ts';
import { DATA_IMPORT_ROLLBACK_JOB } from './rollback.job.ts';
import { findTask, type TaskRow } from './task-repo.ts';

// Asking for an import's roll back, and what the history shows of it (issue 17, docs/decisions/0031).
// State machine: an import can be rolled back once it ended (Finished, Failed or Timeout; a Waiting or Running one
// must finish or time out first, a Canceled one wrote nothing). The roll back is its own platform job
// (data_port_tasks.rollback_job_id, one per task): Waiting → Running → Finished; a roll back that died (Timeout) or
// failed is asked again and goes on where it stopped; once Finished, never again. A task with a roll back is never
// retried (its rows would come back). Who: the importer and the engine's administrators.

const ENDED: readonly string[] = ['Finished', 'Failed', 'Timeout'];
const RESUMABLE: readonly string[] = ['Timeout', 'Failed'];

/** The import task the caller may roll back: the importer's own, or any of the engine's for an administrator. */
async function rollbackableTask(ctx: NodeContext, taskId: string): Promise<TaskRow> {
  const task = await findTask(engineOf(ctx), taskId);
  const allowed = task && (task.created_by === ctx.userId || ctx.authType === UserAuthType.Administrator);
  if (!task || !allowed) throw new AppError('DataPortTaskNotFound', { detail: { taskId } });
  if (task.type !== 'Import') throw new AppError('DataPortRollbackNotImport', { detail: { taskId } });
  return task;
}

/**
 * POST /v1/dataPort/RollbackImportTask: queues the roll back (or resumes one that died). The import's job row is
 * locked first, as RetryTimeoutTasks locks it, so a retry and a roll back never both go through.
 */
export async function rollbackImportTask(ctx: NodeContext, taskId: string): Promise<contracts.RollbackImportResult> {
  await rollbackableTask(ctx, taskId);
  await ctx.db.transaction().execute(async (trx) => {
    const job = await trx.selectFrom('platform.jobs').select('state').where('id', '=', taskId).where('engine_code', '=', ctx.engineCode).forUpdate().executeTakeFirst();
    if (!job || !ENDED.includes(job.state)) throw new AppError('DataPortRollbackNotEnded', { detail: { taskId, state: job?.state ?? null } });
    const edb = engineDb(trx as unknown as Db, ctx.engineCode);
    const task = (await edb.selectFrom('data_port_tasks').select('rollback_job_id').where('id', '=', taskId).forUpdate().executeTakeFirstOrThrow());
    if (task.rollback_job_id) {
      const rollback = await trx.selectFrom('platform.jobs').select('state').where('id', '=', task.rollback_job_id).executeTakeFirst();
      if (rollback?.state === 'Finished') throw new AppError('DataPortRollbackDone', { detail: { taskId } });
      if (!rollback || !RESUMABLE.includes(rollback.state)) throw new AppError('DataPortRollbackRunning', { detail: { taskId, state: rollback?.state ?? null } });
      await retryJob(trx as unknown as Db, task.rollback_job_id, RESUMABLE);
      return;
    }
    const id = await enqueueJob(trx as unknown as Db, { engineCode: ctx.engineCode, kind: DATA_IMPORT_ROLLBACK_JOB, payload: { taskId }, createdBy: ctx.userId });
    await edb.updateTable('data_port_tasks').set({ rollback_job_id: id, rollback_by: ctx.userId }).where('id', '=', taskId).execute();
  });
  const task = (await findTask(engineOf(ctx), taskId))!;
  return { taskId, rollback: (await rollbackStates(ctx, [task])).get(taskId)! };
}

/**
 * RetryTimeoutTasks for one task: under the import job's row lock, refused (300104) when the task has a roll back.
 * Answers whether the job went back to Waiting.
 */
export async function retryUnlessRolledBack(ctx: NodeContext, taskId: string): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    await trx.selectFrom('platform.jobs').select('id').where('id', '=', taskId).where('engine_code', '=', ctx.engineCode).forUpdate().executeTakeFirst();
    const task = await engineDb(trx as unknown as Db, ctx.engineCode).selectFrom('data_port_tasks').select('rollback_job_id').where('id', '=', taskId).executeTakeFirst();
    if (task?.rollback_job_id) throw new AppError('DataPortTaskRolledBack', { detail: { taskId } });
    return retryJob(trx as unknown as Db, taskId);
  });
}

/** The roll back of each task that has one: its job's state and progress, and the records done so far by outcome. */
export async function rollbackStates(ctx: NodeContext, tasks: readonly TaskRow[]): Promise<Map<string, contracts.ImportRollbackDto>> {
  const out = new Map<string, contracts.ImportRollbackDto>();
  const withRollback = tasks.filter((t) => t.rollback_job_id);
  if (!withRollback.length) return out;
  const jobs = await ctx.db
    .selectFrom('platform.jobs')
    .select(['id', 'state', 'progress', 'message', 'finished_time'])
    .where('id', 'in', withRollback.map((t) => t.rollback_job_id!))
    .where('engine_code', '=', ctx.engineCode)
    .execute();
  const counts = await engineOf(ctx)
    .selectFrom('data_import_objects')
    .select(['task_id', 'rollback', (eb) => eb.fn.countAll<number>().as('n')])
    .where('task_id', 'in', withRollback.map((t) => t.id))
    .where('rollback', 'is not', null)
    .groupBy(['task_id', 'rollback'])
    .execute();
  for (const task of withRollback) {
    const job = jobs.find((j) => j.id === task.rollback_job_id);
    const n = (outcome: string) => Number(counts.find((c) => c.task_id === task.id && c.rollback === outcome)?.n ?? 0);
    out.set(task.id, {
      state: (job?.state ?? 'Failed') as BackgroundTaskState,
      progress: job?.progress ?? 0,
      message: job?.message ?? null,
      rolledBackBy: task.rollback_by,
      deleted: n('deleted'),
      restored: n('restored'),
      refused: n('refused'),
      gone: n('gone'),
      finishedTime: job?.finished_time ? new Date(job.finished_time).toISOString() : null,
    });
  }
  return out;
}

/** May the history offer 回滚 for this task now (the import ended; no roll back, or one that died). */
export function rollbackOffered(task: TaskRow, importState: string, rollback: contracts.ImportRollbackDto | undefined): boolean {
  if (task.type !== 'Import' || !ENDED.includes(importState)) return false;
  return !rollback || RESUMABLE.includes(rollback.state);
}

/** POST /v1/dataPort/getRollbackReport: the records the roll back left as they are, and why (first 1000, file order). */
export async function rollbackReport(ctx: NodeContext, taskId: string): Promise<contracts.RollbackReportResult> {
  await rollbackableTask(ctx, taskId);
  const q = engineOf(ctx).selectFrom('data_import_objects').where('task_id', '=', taskId).where('rollback', 'in', ['refused', 'gone']);
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.select(['row_no', 'object_id', 'action', 'rollback', 'rollback_note']).orderBy('row_no').limit(1000).execute();
  return {
    total: Number(n),
    rows: rows.map((r) => ({ rowNo: r.row_no, objectId: r.object_id, action: r.action as 'insert' | 'update', outcome: r.rollback as 'refused' | 'gone', note: r.rollback_note ?? '' })),
  };
}
