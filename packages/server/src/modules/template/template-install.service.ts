import type { contracts } from '@tritium/shared';
import { clearSampleData as clearSamples, installProgress, sampleDataOf, startPackageInstall } from '../app-package/index.ts';
import { engineOf, getAppViewOrThrow, viewerOf } from '../function-node/node-context.ts';
import { assertCanAdministerApp } from '../function-node/function-node.policy.ts';
import { assertCanInstall } from './template.policy.ts';
import { getVisibleOrThrow } from './template-market.service.ts';
import * as repo from './template.repo.ts';
import { templateDb } from './template.tables.ts';
import type { TemplateContext, TemplateDeps } from './template-context.ts';

// Installing a template into the caller's engine and its sample data (POST /v1/template/install, GET
// /install/progress, POST /checksampledata, /clearsampledata; docs/decisions/0131). The install is the package
// layer's job (docs/decisions/0130): crash-safe, with progress; the template only says which package.

export async function installTemplate(ctx: TemplateContext, deps: TemplateDeps, body: { templateId: string; withSampleData: boolean; formMapping?: Record<string, string>; roleMapping?: Record<string, string> }): Promise<{ actionId: string }> {
  const row = await getVisibleOrThrow(ctx, deps, body.templateId);
  assertCanInstall(await viewerOf(engineOf(ctx), ctx));
  const started = await startPackageInstall(ctx, row.package_id, { sampleData: body.withSampleData, formMapping: body.formMapping, roleMapping: body.roleMapping });
  await repo.countInstall(templateDb(deps.db), row.id);
  return { actionId: started.actionId };
}

export async function templateInstallProgress(ctx: TemplateContext, actionId: string): Promise<contracts.InstallProgressResult> {
  const p = await installProgress(ctx, actionId);
  return { actionId: p.actionId, isComplete: p.isComplete, state: p.state, progress: p.progress, message: p.message ?? null, appCode: p.appCode ?? null };
}

/** The app's view, for its administrators only. */
async function administeredApp(ctx: TemplateContext, appCode: string) {
  const edb = engineOf(ctx);
  const viewer = await viewerOf(edb, ctx);
  const view = await getAppViewOrThrow(edb, viewer, appCode);
  assertCanAdministerApp(viewer, view.permissionOf(appCode), appCode);
  return view;
}

export async function checkSampleData(ctx: TemplateContext, appCode: string): Promise<contracts.SampleDataResult> {
  const view = await administeredApp(ctx, appCode);
  const found = await sampleDataOf(ctx.db, ctx.engineCode, appCode);
  return {
    total: found.total,
    forms: found.forms.map((f) => ({ schemaCode: f.schemaCode, displayName: view.node(f.schemaCode)?.display_name ?? f.schemaCode, count: f.count })),
  };
}

export async function clearSampleData(ctx: TemplateContext, appCode: string): Promise<{ removed: number }> {
  await administeredApp(ctx, appCode);
  return clearSamples(ctx, appCode);
}
