import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { appToPublish, publishTemplate } from './template.service.ts';
import { assertCanPublishApp } from './template.policy.ts';
import * as repo from './template.repo.ts';
import { templateDb } from './template.tables.ts';
import type { TemplateContext, TemplateDeps } from './template-context.ts';

// Sharing an app with other engines of the platform (POST /v1/share/app/publish; docs/decisions/0131). The app is
// published as this engine's template (again: a new version of it) and the engines named — and, when asked, every
// engine associated with this one (docs/decisions/0091) — see it under 共享给我的. Nobody else does.

export async function shareApp(
  ctx: TemplateContext,
  deps: TemplateDeps,
  body: { appCode: string; engineCodes: string[]; toAssociated: boolean; name?: string; category: string; summary: string; withSampleData: boolean },
): Promise<contracts.ShareAppResult> {
  const app = await appToPublish(ctx, body.appCode);
  assertCanPublishApp(app.viewer, app.permission);
  const tdb = templateDb(deps.db);
  const targets = new Set(body.engineCodes);
  if (body.toAssociated) for (const code of await repo.associatedEngines(tdb, ctx.engineCode)) targets.add(code);
  if (!targets.size) throw new AppError('ShareTargetsEmpty');
  if (targets.has(ctx.engineCode)) throw new AppError('ShareTargetInvalid', { detail: { engineCode: ctx.engineCode } });
  const engines = await repo.existingEngines(tdb, [...targets]);
  const unknown = [...targets].find((code) => !engines.has(code));
  if (unknown) throw new AppError('ShareTargetInvalid', { detail: { engineCode: unknown } });

  const existing = await deps.db.transaction().execute((trx) => repo.findOwnOfApp(templateDb(trx), ctx.engineCode, body.appCode, 'Engine'));
  const published = await publishTemplate(ctx, deps, {
    appCode: body.appCode,
    scope: 'Engine',
    name: body.name ?? existing?.name ?? app.name,
    category: body.name || !existing ? body.category : existing.category,
    summary: body.summary || existing?.summary || '',
    description: existing?.description ?? '',
    pictures: [],
    keepPictures: true,
    withSampleData: body.withSampleData,
  });
  await repo.addShares(tdb, published.templateId, [...targets], ctx.userId);
  return { templateId: published.templateId, version: published.version, sharedWith: await repo.sharesOf(tdb, published.templateId) };
}
