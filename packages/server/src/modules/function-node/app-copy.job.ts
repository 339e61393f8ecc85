import { sql } from 'kysely';
import type { contracts } from '@tritium/shared';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { NAME_LENGTH } from '@tritium/shared/constants/limits';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { enqueueJob, retryJob } from '../../jobs/job-runner.ts';
import type { JobContext, JobHandler } from '../../jobs/job-registry.ts';
import { checkCopyRules, generateCode } from './function-node.service.ts';
import { engineOf, getAppViewOrThrow, inNodeTransaction, lockFunctionNodes, viewerOf, type NodeContext } from './node-context.ts';
import { isAdministrator } from './function-node.policy.ts';
import { remapSchemaCodes } from './code-remap.ts';

// Copying an app (calls.md §4) runs as a background job (architecture.md §4). The copied rows carry the job id
// (copy_job_id) while the job writes them, so they stay invisible; one final transaction publishes them all. A
// new attempt first deletes what an earlier, dead attempt left: never a half copy visible, never two copies.

export const APP_COPY_JOB = 'app.copy';
const COPY_SUFFIX = '-副本';

export interface AppCopyOptions {
  /** Nodes written per batch. */
  batchSize: number;
  /** Pause after each batch (tests make a copy slow on purpose; 0 in production). */
  batchDelayMs: number;
}

/** The copy's name: the original + '-副本', the original shortened so the whole fits 32 characters. */
export function copyName(name: string): string {
  const room = NAME_LENGTH.max - COPY_SUFFIX.length;
  return `${[...name].slice(0, room).join('')}${COPY_SUFFIX}`;
}

/** A code for the copy of `code`: its first 40 characters and a random suffix (so never all digits). */
function copyCode(code: string): string {
  return generateCode(`${code.slice(0, 40)}_c`);
}

interface CopyPayload {
  appCode: string;
}

export function appCopyHandler(options: AppCopyOptions): JobHandler {
  return {
    async run(ctx: JobContext) {
      const { appCode } = ctx.payload as CopyPayload;
      const edb = engineDb(ctx.db, ctx.engineCode);
      // What an earlier attempt of this job left behind.
      await edb.deleteFrom('function_nodes').where('copy_job_id', '=', ctx.jobId).execute();
      try {
        return await copyApp(ctx, appCode, options);
      } catch (error) {
        await edb.deleteFrom('function_nodes').where('copy_job_id', '=', ctx.jobId).execute().catch(() => undefined);
        throw error;
      }
    },
  };
}

async function copyApp(ctx: JobContext, appCode: string, options: AppCopyOptions): Promise<{ appCode: string }> {
  const edb = engineDb(ctx.db, ctx.engineCode);
  const source = await edb
    .selectFrom('function_nodes')
    .selectAll()
    .where('app_code', '=', appCode)
    .where('copy_job_id', 'is', null)
    .orderBy(sql`case when node_type = ${FunctionNodeType.AppPackage} then 0 else 1 end`)
    .orderBy('parent_code')
    .orderBy('sort_key')
    .execute();
  const app = source.find((n) => n.code === appCode && n.node_type === FunctionNodeType.AppPackage);
  if (!app) throw new AppError('FunctionNodeNotFound', { detail: { code: appCode } });
  const newCodes = new Map(source.map((n) => [n.code, n.code === appCode ? copyCode(appCode) : copyCode(n.code)]));
  const newAppCode = newCodes.get(appCode)!;
  const rows = source.map((n) => ({
    code: newCodes.get(n.code)!,
    object_id: newId(),
    parent_code: n.parent_code === null ? null : (newCodes.get(n.parent_code) ?? newAppCode),
    app_code: newAppCode,
    display_name: n.code === appCode ? copyName(n.display_name) : n.display_name,
    icon: n.icon,
    icon_color: n.icon_color,
    node_type: n.node_type,
    summary: n.summary,
    app_state: n.app_state,
    source: n.source,
    state: n.state,
    sort_key: n.sort_key,
    url: n.url,
    copy_job_id: ctx.jobId,
  }));
  await ctx.reportProgress(1, `0/${rows.length}`);
  for (let i = 0; i < rows.length; i += options.batchSize) {
    const batch = rows.slice(i, i + options.batchSize);
    await edb.insertInto('function_nodes').values(batch).execute();
    const done = Math.min(rows.length, i + options.batchSize);
    await ctx.reportProgress(1 + Math.floor((done / rows.length) * 97), `${done}/${rows.length}`);
    if (options.batchDelayMs > 0) await new Promise((r) => setTimeout(r, options.batchDelayMs));
  }
  // Publish: under the engine's node lock, and only while this attempt still holds the job.
  await ctx.db.transaction().execute(async (trx) => {
    await lockFunctionNodes(trx, ctx.engineCode);
    await ctx.assertOwned(trx as unknown as Db);
    const tdb = engineDb(trx as unknown as Db, ctx.engineCode);
    const grants = await tdb.selectFrom('node_permissions').select(['node_code', 'unit_id', 'permission']).where('node_code', 'in', [...newCodes.keys()]).execute();
    if (grants.length) {
      await tdb
        .insertInto('node_permissions')
        .values(grants.map((g) => ({ node_code: newCodes.get(g.node_code)!, unit_id: g.unit_id, permission: g.permission })))
        .execute();
    }
    // Form designs travel as drafts (the copy has no tables until it is published); references between forms of
    // the app point to the copies.
    const designs = await tdb.selectFrom('form_schemas').select(['schema_code', 'draft']).where('schema_code', 'in', [...newCodes.keys()]).execute();
    if (designs.length) {
      await tdb
        .insertInto('form_schemas')
        .values(designs.map((d) => ({ schema_code: newCodes.get(d.schema_code)!, draft: JSON.stringify(remapSchemaCodes(d.draft, newCodes)), draft_version: 1, draft_saved_time: new Date() })))
        .execute();
    }
    const last = await tdb
      .selectFrom('function_nodes')
      .select(sql<number>`coalesce(max(sort_key), -1) + 1`.as('k'))
      .where('parent_code', 'is', null)
      .where('copy_job_id', 'is', null)
      .executeTakeFirstOrThrow();
    await tdb.updateTable('function_nodes').set({ sort_key: Number(last.k) }).where('code', '=', newAppCode).execute();
    await tdb.updateTable('function_nodes').set({ copy_job_id: null, created_time: new Date(), modified_time: new Date() }).where('copy_job_id', '=', ctx.jobId).execute();
  });
  return { appCode: newAppCode };
}

/** POST /copy: checks, then queues the job; answers its id (actionId). */
export async function startAppCopy(ctx: NodeContext, code: string): Promise<{ actionId: string }> {
  return inNodeTransaction(ctx, async ({ trx, edb, viewer }) => {
    await checkCopyRules(edb, viewer, code);
    const actionId = await enqueueJob(trx as unknown as Db, { engineCode: ctx.engineCode, kind: APP_COPY_JOB, payload: { appCode: code } satisfies CopyPayload, createdBy: ctx.userId });
    return { actionId };
  });
}

/** A copy job of the caller's engine that the caller started (Administrators: any); otherwise 404. */
async function getCopyJobOrThrow(ctx: NodeContext, executor: Db, actionId: string) {
  const job = await executor
    .selectFrom('platform.jobs')
    .selectAll()
    .where('id', '=', actionId)
    .where('engine_code', '=', ctx.engineCode)
    .where('kind', '=', APP_COPY_JOB)
    .executeTakeFirst();
  const mayRead = job && (job.created_by === ctx.userId || isAdministrator({ userId: ctx.userId, authType: ctx.authType, unitIds: [] }));
  if (!job || !mayRead) throw new AppError('JobNotFound', { detail: { actionId } });
  return job;
}

/** GET /copy/progress: isComplete, state, progress and, once complete, the new app as the caller sees it. */
export async function copyProgress(ctx: NodeContext, actionId: string): Promise<contracts.CopyProgressResult> {
  const job = await getCopyJobOrThrow(ctx, ctx.db, actionId);
  const isComplete = job.state === 'Finished';
  let node: contracts.AppDto | null = null;
  if (isComplete) {
    const edb = engineOf(ctx);
    const newAppCode = (job.result as { appCode?: string } | null)?.appCode;
    if (newAppCode) node = await getAppViewOrThrow(edb, await viewerOf(edb, ctx), newAppCode).then((v) => v.presentApp(true), () => null);
  }
  return { actionId: job.id, isComplete, state: job.state as contracts.CopyProgressResult['state'], progress: job.progress, message: job.message, attempts: job.attempts, node };
}

/** POST /copy/retry: a copy that timed out runs again from a clean start (domain.md §4: a timed-out task can be retried). */
export async function retryAppCopy(ctx: NodeContext, actionId: string): Promise<contracts.CopyProgressResult> {
  await getCopyJobOrThrow(ctx, ctx.db, actionId);
  if (!(await retryJob(ctx.db, actionId))) throw new AppError('JobNotRetryable', { detail: { actionId } });
  return copyProgress(ctx, actionId);
}
