import type { contracts } from '@tritium/shared';
import { rollupsOf } from '@tritium/shared/business-rules/index';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { enqueueJob } from '../../jobs/job-runner.ts';
import type { JobHandler } from '../../jobs/job-registry.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, anyDb } from '../business-data/runtime-form.ts';
import { FormCache, recomputeStoredRecord } from '../business-data/record-rollups.ts';

// /v1/form/rollup/* (calls.md "rollup recompute"; docs/decisions/0015): recompute a form's stored rollups — after a
// rollup was added to a form with records, or to repair — as a job that pages through the records by ObjectId, one
// transaction per page, reporting progress; and one record at once.

export const ROLLUP_RECOMPUTE_JOB = 'form-rollup-recompute';
const PAGE = 200;

interface Payload {
  schemaCode: string;
}

async function adminForm(ctx: NodeContext, schemaCode: string) {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  if (!form.isAppAdmin) throw new AppError('FunctionNodeForbidden', { detail: { schemaCode } });
  return form;
}

export async function startRecompute(ctx: NodeContext, schemaCode: string): Promise<{ actionId: string }> {
  const form = await adminForm(ctx, schemaCode);
  const actionId = await enqueueJob(ctx.db, { engineCode: ctx.engineCode, kind: ROLLUP_RECOMPUTE_JOB, payload: { schemaCode: form.node.code } satisfies Payload, createdBy: ctx.userId });
  return { actionId };
}

export async function recomputeProgress(ctx: NodeContext, actionId: string): Promise<contracts.RollupProgressResult> {
  const job = await ctx.db
    .selectFrom('platform.jobs')
    .selectAll()
    .where('id', '=', actionId)
    .where('engine_code', '=', ctx.engineCode)
    .where('kind', '=', ROLLUP_RECOMPUTE_JOB)
    .where('created_by', '=', ctx.userId)
    .executeTakeFirst();
  if (!job) throw new AppError('JobNotFound', { detail: { actionId } });
  const result = (job.result ?? null) as { records: number; changed: number } | null;
  return { actionId: job.id, isComplete: job.state === 'Finished', state: job.state, progress: job.progress, message: job.message, result };
}

/** One record now, in one transaction (the caller may change the record: app administrators). */
export async function recomputeRecord(ctx: NodeContext, body: { schemaCode: string; objectId: string }) {
  const form = await adminForm(ctx, body.schemaCode);
  return ctx.db.transaction().execute(async (trx) => {
    const forms = new FormCache(engineDb(trx as unknown as Db, ctx.engineCode));
    const out = await recomputeStoredRecord(forms, form, body.objectId);
    if (!out.found) throw new AppError('BizObjectNotFound', { detail: { objectId: body.objectId } });
    const codes = rollupsOf(form.definition.controls).map((s) => s.code);
    return { objectId: body.objectId, values: Object.fromEntries(codes.map((c) => [c, out.values[c] ?? null])), changed: out.changed };
  });
}

export function rollupRecomputeHandler(): JobHandler {
  return {
    // Idempotent, nobody to decide: a job whose process died is taken up by another (docs/decisions/0129).
    requeueWhenLost: true,
    async run(job) {
      const { schemaCode } = job.payload as Payload;
      const edb = engineDb(job.db, job.engineCode);
      const forms = new FormCache(edb);
      const form = await forms.require(schemaCode);
      const total = await countOf(edb, form.mainTable);
      let after: string | null = null;
      let records = 0;
      let changed = 0;
      for (;;) {
        let q = anyDb(edb).selectFrom(form.mainTable).select('ObjectId');
        if (after !== null) q = q.where('ObjectId', '>', after);
        const page = await q.orderBy('ObjectId').limit(PAGE).execute();
        if (!page.length) break;
        await job.db.transaction().execute(async (trx) => {
          const tforms = new FormCache(engineDb(trx as unknown as Db, job.engineCode));
          const tform = await tforms.require(schemaCode);
          for (const row of page) if ((await recomputeStoredRecord(tforms, tform, String(row.ObjectId))).changed) changed++;
        });
        records += page.length;
        after = String(page[page.length - 1].ObjectId);
        await job.reportProgress(Math.min(99, Math.floor((records / Math.max(total, 1)) * 100)), `${records}/${total}`);
      }
      return { records, changed };
    },
  };
}

async function countOf(edb: EngineExecutor, table: string): Promise<number> {
  const row = await anyDb(edb).selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
