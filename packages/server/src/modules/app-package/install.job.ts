import { sql } from 'kysely';
import type { contracts } from '@tritium/shared';
import { DEFAULT_APP_STATE, DEFAULT_NODE_SOURCE, FunctionNodeType } from '@tritium/shared/constants/function-node';
import { UserAuthType } from '@tritium/shared/constants/org';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { enqueueJob, retryJob } from '../../jobs/job-runner.ts';
import { JobLostError, type JobContext, type JobHandler } from '../../jobs/job-registry.ts';
import { generateCode } from '../function-node/function-node.service.ts';
import { canCreateApp, isAdministrator } from '../function-node/function-node.policy.ts';
import { engineOf, lockFunctionNodes, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { withHiddenRowsOf } from '../function-node/install-scope.ts';
import { FORM_NODE_TYPES } from '../form-design/form-access.ts';
import { removeHiddenApp } from './app-removal.ts';
import { installContent, type InstallRun } from './install-steps.ts';
import { installSamples } from './sample-install.ts';
import { readPackage } from './package-store.ts';
import { roleNamed } from '../org/role-by-name.ts';
import { packageStore } from './package-config.ts';
import type { PackageContent } from './package-format.ts';

// Installing a package into an engine (docs/decisions/0130) is a background job. Its app node carries the job's id
// (copy_job_id, as an app copy's rows do) from the first write, so the app and everything below it stay out of every
// list; the designers' services see it only inside the job (install-scope.ts). One final transaction — under the node
// lock, only while this attempt still holds the job — clears the mark. A new attempt first removes what a dead one
// left; a failed or canceled install removes what it made. Kinds of rows written: see app-removal.ts.

export const APP_INSTALL_JOB = 'app.install';

export interface InstallPayload {
  packageId: string;
  sampleData: boolean;
  formMapping: Record<string, string>;
  roleMapping: Record<string, string>;
  authType: number;
}

async function unitsByName(edb: ReturnType<typeof engineOf>) {
  const rows = await edb.selectFrom('org_units').select(['id', 'name', 'unit_type']).execute();
  const roles = new Map<string, string>();
  const departments = new Map<string, string>();
  for (const r of rows) {
    if (r.unit_type === 'Role') roles.set(r.name, String(r.id));
    else if (!departments.has(r.name)) departments.set(r.name, String(r.id));
  }
  return { roles, departments };
}

/** Forms outside the app must each be mapped to a published form of this engine; refused with the list otherwise. */
async function checkMapping(ctx: NodeContext, content: PackageContent, mapping: Record<string, string>): Promise<void> {
  const missing = content.pkg.externalForms.filter((f) => !mapping[f.code]).map((f) => f.code);
  if (missing.length) throw new AppError('AppPackageExternalFormsUnmapped', { detail: { codes: missing.join('、'), forms: content.pkg.externalForms.filter((f) => missing.includes(f.code)) } });
  const edb = engineOf(ctx);
  for (const f of content.pkg.externalForms) {
    const target = mapping[f.code]!;
    const node = await edb.selectFrom('function_nodes').select(['node_type']).where('code', '=', target).where('copy_job_id', 'is', null).executeTakeFirst();
    const published = node && FORM_NODE_TYPES.includes(node.node_type) ? await edb.selectFrom('form_schemas').select('schema_code').where('schema_code', '=', target).where('published', 'is not', null).executeTakeFirst() : undefined;
    if (!published) throw new AppError('AppPackageMappingInvalid', { detail: { code: target } });
  }
}

async function assertInstaller(ctx: NodeContext): Promise<void> {
  if (!canCreateApp(await viewerOf(engineOf(ctx), ctx))) throw new AppError('AppPackageForbidden');
}

/** Checks the package and the mapping (nothing written when refused), then queues the install. */
export async function startPackageInstall(ctx: NodeContext, packageId: string, opts: { sampleData: boolean; formMapping?: Record<string, string>; roleMapping?: Record<string, string> }): Promise<{ actionId: string }> {
  await assertInstaller(ctx);
  const content = await readPackage({ db: ctx.db, store: packageStore(ctx.db) }, packageId, ctx.engineCode);
  await checkMapping(ctx, content, opts.formMapping ?? {});
  const payload: InstallPayload = { packageId, sampleData: opts.sampleData, formMapping: opts.formMapping ?? {}, roleMapping: opts.roleMapping ?? {}, authType: ctx.authType };
  const actionId = await enqueueJob(ctx.db, { engineCode: ctx.engineCode, kind: APP_INSTALL_JOB, payload, createdBy: ctx.userId });
  return { actionId };
}

async function jobState(db: Db, id: string): Promise<string | undefined> {
  return (await db.selectFrom('platform.jobs').select('state').where('id', '=', id).executeTakeFirst())?.state;
}

export function appInstallHandler(options: { stepDelayMs?: number } = {}): JobHandler {
  return {
    async run(job: JobContext) {
      // What an earlier attempt of this job left behind.
      await removeHiddenApp(job.db, job.engineCode, job.jobId);
      try {
        return await install(job, options.stepDelayMs ?? 0);
      } catch (error) {
        // Lost to the sweep (Timeout): the retry removes it. Canceled, failed: removed now.
        if (!(error instanceof JobLostError) || (await jobState(job.db, job.jobId)) === 'Canceled') await removeHiddenApp(job.db, job.engineCode, job.jobId).catch(() => undefined);
        throw error;
      }
    },
  };
}

/** The role names a package's flows (its units) and permission groups use. */
function rolesNamed(content: PackageContent): Set<string> {
  const names = new Set(content.pkg.units.filter((u) => u.kind === 'role').map((u) => u.name));
  for (const f of content.pkg.forms) for (const g of f.permissionGroups) for (const r of g.roles) names.add(r);
  return names;
}

async function install(job: JobContext, stepDelayMs: number): Promise<{ appCode: string; unmatched: string[]; samples: number }> {
  const payload = job.payload as InstallPayload;
  const store = packageStore(job.db);
  const userId = job.createdBy!;
  const ctx: NodeContext = { db: job.db, engineCode: job.engineCode, userId, authType: payload.authType };
  await job.reportProgress(1, '读取应用包');
  const content = await readPackage({ db: job.db, store }, payload.packageId, job.engineCode);
  const edb = engineOf(ctx);
  const units = await unitsByName(edb);
  for (const [name, id] of Object.entries(payload.roleMapping)) (units.roles.has(name) ? units.roles : units.departments.has(name) ? units.departments : units.roles).set(name, id);
  // Roles the app's flows and permission groups name that this organisation lacks are made by name (empty: the
  // administrator adds people), so an approval installs in one click; a retry finds them by name. They stay when the
  // app is removed: by then they may have members and other uses.
  for (const name of rolesNamed(content)) if (!units.roles.has(name)) units.roles.set(name, await roleNamed(ctx, name));
  const appCode = generateCode('A');
  const codes = new Map<string, string>([[content.pkg.app.code, appCode], ...Object.entries(payload.formMapping)]);
  const run: InstallRun = {
    ctx,
    content,
    appCode,
    codes,
    units,
    unmatched: new Set(),
    async progress(percent, message) {
      await job.reportProgress(percent, message);
      if (stepDelayMs) await new Promise((r) => setTimeout(r, stepDelayMs));
    },
  };
  // The app node, hidden by the job's id from its first write.
  const app = content.pkg.app;
  await edb
    .insertInto('function_nodes')
    .values({ code: appCode, object_id: newId(), parent_code: null, app_code: appCode, display_name: app.name, icon: app.icon, icon_color: app.iconColor, node_type: FunctionNodeType.AppPackage, summary: app.summary, app_state: DEFAULT_APP_STATE, source: DEFAULT_NODE_SOURCE, state: 'Normal', sort_key: 0, url: null, copy_job_id: job.jobId })
    .execute();
  // An AppCreator administers the apps they install, as the ones they create.
  if (!isAdministrator({ userId, authType: payload.authType, unitIds: [] })) await edb.insertInto('node_permissions').values({ node_code: appCode, unit_id: userId, permission: 'administrator' }).execute();
  const samples = await withHiddenRowsOf(job.jobId, async () => {
    await installContent(run);
    return payload.sampleData ? installSamples(run, job.db, store, 70, 97) : 0;
  });
  await job.reportProgress(98, '发布应用');
  await job.db.transaction().execute(async (trx) => {
    await lockFunctionNodes(trx, job.engineCode);
    await job.assertOwned(trx as unknown as Db);
    const tdb = engineDb(trx as unknown as Db, job.engineCode);
    const last = await tdb.selectFrom('function_nodes').select(sql<number>`coalesce(max(sort_key), -1) + 1`.as('k')).where('parent_code', 'is', null).where('copy_job_id', 'is', null).executeTakeFirstOrThrow();
    await tdb.updateTable('function_nodes').set({ copy_job_id: null, sort_key: Number(last.k), created_time: new Date(), modified_time: new Date() }).where('copy_job_id', '=', job.jobId).execute();
  });
  return { appCode, unmatched: [...run.unmatched], samples };
}

/** An install job of the caller's engine that the caller started (Administrators: any); otherwise 500011. */
async function installJobOrThrow(ctx: NodeContext, actionId: string) {
  const job = /^[0-9a-f-]{36}$/i.test(actionId)
    ? await ctx.db.selectFrom('platform.jobs').selectAll().where('id', '=', actionId).where('engine_code', '=', ctx.engineCode).where('kind', '=', APP_INSTALL_JOB).executeTakeFirst()
    : undefined;
  if (!job || (job.created_by !== ctx.userId && ctx.authType !== UserAuthType.Administrator)) throw new AppError('AppPackageInstallNotFound', { detail: { actionId } });
  return job;
}

export async function installProgress(ctx: NodeContext, actionId: string): Promise<contracts.AppPackageInstallProgress> {
  const job = await installJobOrThrow(ctx, actionId);
  const result = job.result as { appCode?: string; unmatched?: string[] } | null;
  const done = job.state === 'Finished';
  return {
    actionId: job.id,
    isComplete: done,
    state: job.state as contracts.AppPackageInstallProgress['state'],
    progress: job.progress,
    message: job.message,
    ...(done && result?.appCode ? { appCode: result.appCode, unmatched: result.unmatched ?? [] } : {}),
  };
}

/** Cancel: a waiting install never runs; a running one stops at its next step and removes what it made; a timed-out one is removed at once. */
export async function cancelInstall(ctx: NodeContext, actionId: string): Promise<contracts.AppPackageInstallProgress> {
  const job = await installJobOrThrow(ctx, actionId);
  const r = await ctx.db
    .updateTable('platform.jobs')
    .set({ state: 'Canceled', message: '已取消', finished_time: new Date(), lease_until: null })
    .where('id', '=', actionId)
    .where('state', 'in', ['Waiting', 'Running', 'Timeout'])
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new AppError('AppPackageInstallNotCancelable');
  // A timed-out attempt has no worker left to clean up after it: its rows go now.
  if (job.state === 'Timeout') await removeHiddenApp(ctx.db, ctx.engineCode, actionId);
  return installProgress(ctx, actionId);
}

/** Retry: a timed-out or failed install runs again from a clean start. */
export async function retryInstall(ctx: NodeContext, actionId: string): Promise<contracts.AppPackageInstallProgress> {
  await installJobOrThrow(ctx, actionId);
  if (!(await retryJob(ctx.db, actionId, ['Timeout', 'Failed']))) throw new AppError('JobNotRetryable', { detail: { actionId } });
  return installProgress(ctx, actionId);
}

export { assertInstaller };
