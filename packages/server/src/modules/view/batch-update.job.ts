import { sql } from 'kysely';
import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { BATCH_UPDATE_MAX } from '@tritium/shared/contracts/view/index';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { enqueueJob } from '../../jobs/job-runner.ts';
import type { JobContext, JobHandler } from '../../jobs/job-registry.ts';
import { isAdministrator } from '../function-node/function-node.policy.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { execute } from '../business-data/record.service.ts';
import type { RecordFilesDeps } from '../business-data/record-files.ts';
import { countRecords, queryRecords } from '../query/query.service.ts';
import { NOT_BATCH_EDITABLE } from './view-fields.ts';
import { failureOf, viewNarrowing, type ViewNarrowingInput } from './view-query.service.ts';
import { assertCan } from '../permission/form-rights.ts';

// Batch update (calls.md §7: /v1/bizdata/batchupdate, /batchupdate/progress, /batchupdate/tasks; docs/decisions/0017)
// as a background job (docs/decisions/0004): one field set to one value on the selected records, or on every record
// the view shows; each record is saved as the caller would save it in the form (permissions, value rules, formulas,
// data log), in batches, with progress. Records that fail their check are listed in the result; the others change.

export const BATCH_UPDATE_JOB = 'bizdata.batchUpdate';
const BATCH = 50;
const FAILURES_LISTED = 100;
const PAGE = 500;

interface Payload {
  schemaCode: string;
  userId: string;
  authType: number;
  field: string;
  value: unknown;
  objectIds?: string[];
  narrowing?: ViewNarrowingInput;
}

type Body = z.infer<typeof contracts.BatchUpdateBody>;

/** Checks the field and the size, then queues the job; answers its id. */
export async function startBatchUpdate(ctx: NodeContext, body: Body): Promise<{ taskId: string }> {
  const { form, narrowing } = await viewNarrowing(ctx, body);
  assertCan(form.rights, 'batchUpdate');
  const field = form.fields.find((f) => f.code === body.field);
  if (!field || form.rights.fields.has(field.code) || NOT_BATCH_EDITABLE.has(field.type.key) || field.options.readOnly === true) {
    throw new AppError('BatchUpdateFieldInvalid', { detail: { field: body.field } });
  }
  if (!body.objectIds) {
    // The filter is checked now (a bad one is a 777 here, not a failed job) and the size with it.
    const total = await countRecords(ctx, narrowing);
    if (total > BATCH_UPDATE_MAX) throw new AppError('BatchTooManyRecords', { detail: { total, max: BATCH_UPDATE_MAX } });
  }
  const payload: Payload = {
    schemaCode: form.node.code, userId: ctx.userId, authType: ctx.authType, field: body.field, value: body.value ?? null,
    ...(body.objectIds ? { objectIds: [...new Set(body.objectIds)] } : { narrowing: { schemaCode: form.node.code, viewCode: body.viewCode, personalViewId: body.personalViewId, filter: body.filter, keyword: body.keyword } }),
  };
  return { taskId: await enqueueJob(ctx.db, { engineCode: ctx.engineCode, kind: BATCH_UPDATE_JOB, payload, createdBy: ctx.userId }) };
}

/** Every id the view shows (read before any change, so records the update moves out of the filter are not skipped). */
async function idsOf(ctx: NodeContext, input: ViewNarrowingInput): Promise<string[]> {
  const { narrowing } = await viewNarrowing(ctx, input);
  const ids: string[] = [];
  for (let pageIndex = 0; ; pageIndex++) {
    const page = await queryRecords(ctx, { ...narrowing, pageIndex, pageSize: PAGE });
    ids.push(...page.list.map((r) => String(r.ObjectId)));
    if (!page.hasMore || ids.length >= BATCH_UPDATE_MAX) return ids.slice(0, BATCH_UPDATE_MAX);
  }
}

export function batchUpdateHandler(files: RecordFilesDeps): JobHandler {
  return {
    async run(job: JobContext) {
      const p = job.payload as Payload;
      const ctx: NodeContext = { db: job.db, engineCode: job.engineCode, userId: p.userId, authType: p.authType };
      const ids = p.objectIds ?? (await idsOf(ctx, p.narrowing!));
      const failed: { objectId: string; errorCode: number; message: string }[] = [];
      let failedCount = 0;
      for (let start = 0; start < ids.length; start += BATCH) {
        for (const objectId of ids.slice(start, start + BATCH)) {
          try {
            await execute(ctx, { schemaCode: p.schemaCode, actionCode: 'Save', objectId, values: { [p.field]: p.value } }, files);
          } catch (error) {
            failedCount++;
            if (failed.length < FAILURES_LISTED) failed.push(failureOf(objectId, error));
          }
        }
        const done = Math.min(ids.length, start + BATCH);
        await job.reportProgress((done / ids.length) * 100, `${done}/${ids.length}`);
      }
      return { total: ids.length, succeeded: ids.length - failedCount, failedCount, failed };
    },
  };
}

type JobRow = { id: string; state: string; progress: number; message: string | null; result: unknown; payload: unknown; created_time: Date; created_by: string | null };

const present = (job: JobRow): contracts.BatchTask => {
  const p = job.payload as Payload;
  return {
    taskId: job.id, schemaCode: p.schemaCode, field: p.field, state: job.state, progress: job.progress, message: job.message,
    createdTime: new Date(job.created_time).toISOString(), result: job.state === 'Finished' ? (job.result as contracts.BatchTask['result']) : null,
  };
};

const jobs = (db: Db, ctx: NodeContext) =>
  db.selectFrom('platform.jobs').select(['id', 'state', 'progress', 'message', 'result', 'payload', 'created_time', 'created_by']).where('engine_code', '=', ctx.engineCode).where('kind', '=', BATCH_UPDATE_JOB);

/** A batch task of the caller's engine that the caller started (Administrators: any); 290005 otherwise. */
export async function batchProgress(ctx: NodeContext, taskId: string): Promise<contracts.BatchTask> {
  const job = await jobs(ctx.db, ctx).where('id', '=', taskId).executeTakeFirst();
  const mayRead = job && (job.created_by === ctx.userId || isAdministrator({ userId: ctx.userId, authType: ctx.authType, unitIds: [] }));
  if (!job || !mayRead) throw new AppError('BatchTaskNotFound', { detail: { taskId } });
  return present(job as JobRow);
}

/** The caller's latest batch tasks (20), optionally of one form. */
export async function batchTasks(ctx: NodeContext, schemaCode?: string): Promise<{ list: contracts.BatchTask[] }> {
  let q = jobs(ctx.db, ctx).where('created_by', '=', ctx.userId);
  if (schemaCode) q = q.where(sql<string>`payload->>'schemaCode'`, '=', schemaCode);
  const rows = await q.orderBy('created_time', 'desc').limit(20).execute();
  return { list: rows.map((r) => present(r as JobRow)) };
}
