import type { z } from 'zod';
import { contracts } from '@tritium/shared';
import type { PrintState } from '@tritium/shared/constants/tasks';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { enqueueJob, retryJob } from '../../jobs/job-runner.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import type { FileUrlSigner } from '../files/file-url.ts';
import { assembleDocuments, loadNames, printableIds, sheetOf } from './print-assemble.ts';
import { PRINT_JOB, selectedIds } from './print.job.ts';
import { findPrintTask, type PrintSelection } from './print-tasks.repo.ts';
import { layoutFor, printableForm } from './print-templates.service.ts';
import { findExcelTemplate } from './print-excel.service.ts';
import { linkImages } from './print-images.ts';

// Print tasks (calls.md §7 "Print"; docs/decisions/0050): POST /v1/toolkit/print/paper queues one, /progress reports its
// stage, /retry queues an Error one again. A task is its creator's: nobody else, and no other engine, sees it.

type Out<T extends z.ZodType> = z.output<T>;
const RETRYABLE = ['Timeout', 'Failed'];
/** A download link lives this long; the file itself until the task's expiry. */
const LINK_SECONDS = 600;

/** POST /v1/toolkit/print/data: records (≤ 50) and the layout, for the browser's Print mode. */
export async function printData(ctx: NodeContext, urls: FileUrlSigner, body: Out<typeof contracts.PrintDataBody>, baseUrl: string): Promise<contracts.PrintDataResult> {
  const edb = engineOf(ctx);
  const form = await printableForm(ctx, body.schemaCode);
  const { templateId, layout } = await layoutFor(edb, form, body.templateId);
  const ids = await printableIds(edb, form, body.objectIds, ctx.userId);
  if (!ids.length) throw new AppError('BizObjectNotFound', { detail: { objectIds: body.objectIds } });
  const documents = await assembleDocuments(ctx, form, layout, ids, await loadNames(edb), baseUrl);
  await linkImages(edb, ctx.engineCode, urls, documents);
  return { templateId, layout, sheet: sheetOf(form, documents) };
}

/** POST /v1/toolkit/print/paper: checks the form, the template and the selection now; the job prints later. */
export async function printPaper(ctx: NodeContext, body: Out<typeof contracts.PrintPaperBody>, baseUrl: string): Promise<{ taskId: string }> {
  const edb = engineOf(ctx);
  const form = await printableForm(ctx, body.schemaCode);
  const { templateId } = await layoutFor(edb, form, body.templateId);
  if (body.excelTemplateId) await findExcelTemplate(ctx, body.excelTemplateId, form.node.code);
  const selection: PrintSelection = { excelTemplateId: body.excelTemplateId, objectIds: body.objectIds, filter: body.filter, viewCode: body.viewCode, keyword: body.keyword, status: body.status, sort: body.sort, baseUrl };
  // The selection is read once now, so a bad filter or an empty choice is answered at once (777 / 390006 / 390007).
  const ids = await selectedIds(ctx, form, selection);
  if (!ids.length) throw new AppError('PrintNothingToPrint');
  const taskId = await ctx.db.transaction().execute(async (trx) => {
    const id = await enqueueJob(trx as unknown as Db, { engineCode: ctx.engineCode, kind: PRINT_JOB, payload: {}, createdBy: ctx.userId });
    await trx.updateTable('platform.jobs').set({ payload: JSON.stringify({ taskId: id }) }).where('id', '=', id).execute();
    await engineOf({ db: trx as unknown as Db, engineCode: ctx.engineCode })
      .insertInto('print_tasks')
      .values({ id, schema_code: form.node.code, template_id: templateId ?? contracts.FORM_LAYOUT, created_by: ctx.userId, selection: JSON.stringify(selection) })
      .execute();
    return id;
  });
  return { taskId };
}

async function ownTask(ctx: NodeContext, taskId: string) {
  const task = await findPrintTask(engineOf(ctx), taskId);
  if (!task || task.created_by !== ctx.userId) throw new AppError('PrintTaskNotFound');
  const job = await ctx.db.selectFrom('platform.jobs').select(['state', 'progress', 'message']).where('id', '=', taskId).where('engine_code', '=', ctx.engineCode).executeTakeFirst();
  return { task, job };
}

const STAGES: readonly string[] = ['Print', 'LoadData', 'AssembleData', 'CalcPage', 'GenerateFile'];

/** The spec's print state of a job: Wait before a claim, the stage while it runs, Complete, or Error. */
function stateOf(job: { state: string; message: string | null } | undefined): PrintState {
  if (!job) return 'Error';
  if (job.state === 'Waiting' || job.state === 'Queuing') return 'Wait';
  if (job.state === 'Running') return job.message && STAGES.includes(job.message) ? (job.message as PrintState) : 'Print';
  if (job.state === 'Finished') return 'Complete';
  return 'Error';
}

/** POST /v1/toolkit/print/progress */
export async function printProgress(ctx: NodeContext, urls: FileUrlSigner, taskId: string): Promise<contracts.PrintProgressResult> {
  const { task, job } = await ownTask(ctx, taskId);
  // A Complete task whose file the sweep removed has expired.
  const expired = !!task.expires_at && !task.file_id;
  const state = stateOf(job);
  const running = job?.state === 'Running';
  return {
    taskId,
    schemaCode: task.schema_code,
    state,
    progress: state === 'Complete' ? 100 : (job?.progress ?? 0),
    message: state === 'Error' ? (job?.message ?? null) : expired ? '打印文件已过期，请重新打印' : null,
    total: task.total,
    pages: task.pages,
    retryable: state === 'Error' && !!job && RETRYABLE.includes(job.state) && !running,
    downloadUrl: task.file_id && !expired ? `${urls.sign(ctx.engineCode, task.file_id, LINK_SECONDS).url}&download=1` : null,
    expiresAt: task.expires_at ? new Date(task.expires_at).toISOString() : null,
  };
}

/** POST /v1/toolkit/print/retry: an Error task (its worker died, or it failed) is queued again from the start. */
export async function retryPrint(ctx: NodeContext, urls: FileUrlSigner, taskId: string): Promise<contracts.PrintProgressResult> {
  await ownTask(ctx, taskId);
  if (!(await retryJob(ctx.db, taskId, RETRYABLE))) throw new AppError('PrintTaskNotRetryable');
  return printProgress(ctx, urls, taskId);
}
