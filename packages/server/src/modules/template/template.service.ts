import { randomUUID } from 'node:crypto';
import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { buildAppPackage, checkAppForPackage, readPackage } from '../app-package/index.ts';
import { engineOf, getAppViewOrThrow, viewerOf } from '../function-node/node-context.ts';
import type { NodeViewer, Permission } from '../function-node/function-node.policy.ts';
import { assertCanPublishApp, assertCanRemove, canPublishApp, isPlatformOperator } from './template.policy.ts';
import { copyPictures, dropPictures, picturesToCopy } from './template-pictures.ts';
import * as repo from './template.repo.ts';
import { templateDb } from './template.tables.ts';
import type { StoredSummary } from './template.presenter.ts';
import type { TemplateContext, TemplateDeps } from './template-context.ts';

// Publishing an app as a template, checking first, removing (POST /v1/template/publish, /checkPublish, /remove;
// docs/decisions/0131). Publishing builds the app's package (the package layer, docs/decisions/0130) and records it;
// the same app published again in the same scope is a new version of the same template.

export interface PublishInput {
  appCode: string;
  scope: 'Engine' | 'Platform';
  name: string;
  category: string;
  summary: string;
  description: string;
  pictures: string[];
  withSampleData: boolean;
  /** Publishing again keeps the pictures it has (sharing names none). */
  keepPictures?: boolean;
}

const UNIQUE_VIOLATION = '23505';

interface AppToPublish {
  viewer: NodeViewer;
  permission: Permission;
  name: string;
  icon: string;
  iconColor: string;
  allowed: boolean;
}

/** The app as the caller sees it (FunctionNodeNotFound when they may not open it). */
export async function appToPublish(ctx: TemplateContext, appCode: string): Promise<AppToPublish> {
  const edb = engineOf(ctx);
  const viewer = await viewerOf(edb, ctx);
  const view = await getAppViewOrThrow(edb, viewer, appCode);
  const permission = view.permissionOf(appCode);
  return { viewer, permission, name: view.app.display_name, icon: view.app.icon, iconColor: view.app.icon_color, allowed: canPublishApp(viewer, permission) };
}

/** What would block publishing the app in the scope under the name: permissions, the name, the package's own problems. */
export async function checkPublish(ctx: TemplateContext, deps: TemplateDeps, body: { appCode: string; scope: 'Engine' | 'Platform'; name?: string }): Promise<contracts.CheckPublishResult> {
  const app = await appToPublish(ctx, body.appCode);
  const problems: { path: string; message: string }[] = [];
  if (!app.allowed) problems.push({ path: 'appCode', message: new AppError('TemplatePublishForbidden').message });
  if (body.scope === 'Platform' && !(await isPlatformOperator(deps.db, ctx.accountId))) problems.push({ path: 'scope', message: new AppError('TemplatePlatformScopeForbidden').message });
  if (body.name !== undefined) {
    const holder = await repo.nameHolder(templateDb(deps.db), body.scope, ctx.engineCode, body.name);
    if (holder && !(holder.publisher_engine === ctx.engineCode && holder.source_app_code === body.appCode)) {
      problems.push({ path: 'name', message: new AppError('TemplateNameTaken', { detail: { name: body.name } }).message });
    }
  }
  if (app.allowed) problems.push(...(await checkAppForPackage(deps.db, ctx.engineCode, body.appCode)));
  return { allowed: problems.length === 0, problems };
}

/** The forms a package holds with their sample counts, kept with the template so the market never opens the package. */
async function summaryWithForms(deps: TemplateDeps, packageId: string, summary: object): Promise<StoredSummary & Record<string, unknown>> {
  const { pkg } = await readPackage(deps, packageId);
  const names = new Map(pkg.nodes.map((n) => [n.code, n.name]));
  return { ...summary, forms: pkg.forms.map((f) => ({ name: names.get(f.code) ?? f.code, sampleCount: f.samples.length })) };
}

/** Publishes (or publishes again) an app as a template; answers the template's id and version. */
export async function publishTemplate(ctx: TemplateContext, deps: TemplateDeps, input: PublishInput): Promise<{ templateId: string; version: number }> {
  const app = await appToPublish(ctx, input.appCode);
  assertCanPublishApp(app.viewer, app.permission);
  if (input.scope === 'Platform' && !(await isPlatformOperator(deps.db, ctx.accountId))) throw new AppError('TemplatePlatformScopeForbidden');
  const problems = await checkAppForPackage(deps.db, ctx.engineCode, input.appCode);
  if (problems.length) throw new AppError('TemplatePublishBlocked', { detail: { reason: problems[0]!.message, problems } });
  const pictureSources = await picturesToCopy(deps.db, ctx.engineCode, ctx.userId, input.pictures);
  const built = await buildAppPackage({ db: deps.db, store: deps.store }, ctx.engineCode, input.appCode, { sampleData: input.withSampleData });
  await repo.handOverPackage(templateDb(deps.db), built.packageId, ctx.engineCode);
  const summary = await summaryWithForms(deps, built.packageId, built.summary);

  const write = () => writeTemplate(ctx, deps, input, { icon: app.icon, iconColor: app.iconColor, packageId: built.packageId, summary, pictureSources });
  // Two publishes at once (of the same app, or of two apps under one name): the one that loses the insert tries again
  // and then sees the other's row — its own app's template to update, or the name taken (500102). Which unique index
  // refuses the insert first is PostgreSQL's choice, so any of them sends it round again.
  const written = await write()
    .catch((error: unknown) => (isUniqueViolation(error) ? write() : Promise.reject(error)))
    .catch((error: unknown) => Promise.reject(isUniqueViolation(error) ? new AppError('TemplateNameTaken', { detail: { name: input.name } }) : error));
  await dropPictures(deps.store, written.replaced);
  return { templateId: written.templateId, version: written.version };
}

const isUniqueViolation = (error: unknown, constraint?: string) =>
  (error as { code?: string }).code === UNIQUE_VIOLATION && (constraint === undefined || (error as { constraint?: string }).constraint === constraint);

/** Inserts the template, or its next version, in one transaction holding its row; answers the pictures it replaced. */
async function writeTemplate(
  ctx: TemplateContext,
  deps: TemplateDeps,
  input: PublishInput,
  made: { icon: string; iconColor: string; packageId: string; summary: object; pictureSources: { key: string; contentType: string }[] },
): Promise<{ templateId: string; version: number; replaced: repo.TemplateRow['pictures'] }> {
  return deps.db
    .transaction()
    .execute(async (trx) => {
      const tdb = templateDb(trx);
      const own = await repo.findOwnOfApp(tdb, ctx.engineCode, input.appCode, input.scope);
      const holder = await repo.nameHolder(tdb, input.scope, ctx.engineCode, input.name);
      if (holder && holder.id !== own?.id) throw new AppError('TemplateNameTaken', { detail: { name: input.name } });
      const id = own?.id ?? newId();
      const version = (own?.version ?? 0) + 1;
      const keep = input.keepPictures && own !== undefined;
      const pictures = keep ? own.pictures : await copyPictures(deps.store, id, version, made.pictureSources);
      const fields = {
        name: input.name,
        category: input.category,
        summary: input.summary,
        description: input.description,
        icon: made.icon,
        icon_color: made.iconColor,
        pictures: JSON.stringify(pictures),
        package_id: made.packageId,
        package_summary: JSON.stringify(made.summary),
        version,
        published_by: ctx.userId,
        published_time: new Date(),
      };
      if (own) await repo.updateTemplate(tdb, id, fields);
      else await repo.insertTemplate(tdb, { id, code: `tpl_${randomUUID().replace(/-/g, '').slice(0, 16)}`, scope: input.scope, publisher_engine: ctx.engineCode, source_app_code: input.appCode, ...fields });
      return { templateId: id, version, replaced: own && !keep ? own.pictures : [] };
    });
}

/** Takes a template out of the market (apps installed from it stay as they are). */
export async function removeTemplate(ctx: TemplateContext, deps: TemplateDeps, templateId: string): Promise<void> {
  const tdb = templateDb(deps.db);
  const row = await repo.findVisible(tdb, ctx.engineCode, templateId);
  if (!row) throw new AppError('TemplateNotFound');
  const viewer = await viewerOf(engineOf(ctx), ctx);
  assertCanRemove(viewer, row, ctx.engineCode, row.scope === 'Platform' && (await isPlatformOperator(deps.db, ctx.accountId)));
  await repo.deleteTemplate(tdb, row.id);
  await dropPictures(deps.store, row.pictures);
}
