import { z } from 'zod';
import type { Readable } from 'node:stream';
import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FileStore } from '../files/file-store.ts';
import { contentDisposition } from '../files/content-type.ts';
import { engineOf, getAppViewOrThrow, nodeContextOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { appProblems } from './package-export.ts';
import { packageLimits } from './package-format.ts';
import { buildAppPackage, packageBytes, packageRow, readPackage, storePackageFile } from './package-store.ts';
import { assertInstaller, cancelInstall, installProgress, retryInstall, startPackageInstall } from './install.job.ts';
import { configureAppPackages } from './package-config.ts';
import { registerAppRemoval } from './app-removal.ts';

// The calls of app packages (docs/decisions/0130), under /v1/app-package/ (calls.md names no path for moving an app
// between installations). Administrators and app creators; exporting or checking an app also needs it administered.
// Every package id is looked up within the caller's engine (its own packages and the platform's).

const tags = ['应用包'];
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });
const PACKAGE_TYPE = 'application/gzip';

async function assertAppAdministered(ctx: NodeContext, appCode: string): Promise<void> {
  await assertInstaller(ctx);
  const view = await getAppViewOrThrow(engineOf(ctx), await viewerOf(engineOf(ctx), ctx), appCode);
  if (!view.isAdmin) throw new AppError('AppPackageForbidden');
}

async function readCapped(body: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > packageLimits.maxBytes) {
      body.destroy();
      throw new AppError('AppPackageTooLarge', { detail: { maxBytes: packageLimits.maxBytes } });
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/**
 * A package these calls may serve: only the engine's own (exported or uploaded here). Packages without an owner — the
 * built-in templates' and those templates took over — are reached through the template calls, which decide who sees
 * them (docs/decisions/0131); here they answer as unknown, so a package id never opens another engine's app or data.
 */
async function ownPackageRow(db: Db, packageId: string, engineCode: string) {
  const row = await packageRow(db, packageId, engineCode);
  if (row.engine_code !== engineCode) throw new AppError('AppPackageNotFound', { detail: { packageId } });
  return row;
}

/** What the package holds and how its roles and departments match here. */
async function info(ctx: NodeContext, deps: { db: Db; store: FileStore }, packageId: string) {
  const row = await ownPackageRow(deps.db, packageId, ctx.engineCode);
  const { pkg } = await readPackage(deps, packageId, ctx.engineCode);
  const summary = row.summary as contracts.PackageSummary;
  const units = await engineOf(ctx).selectFrom('org_units').select(['name', 'unit_type']).execute();
  const match = (names: string[], role: boolean) => names.map((name) => ({ name, matched: units.some((u) => u.name === name && (u.unit_type === 'Role') === role) ? name : null }));
  return { packageId, summary: { ...summary, externalForms: pkg.externalForms }, roles: match(summary.roles, true), departments: match(summary.departments, false) };
}

export function appPackageRoutes(app: TypedApp, deps: { db: Db; store: FileStore }): void {
  configureAppPackages(deps.db, deps.store);
  registerAppRemoval(deps.store);
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);

  app.post('/v1/app-package/check', {
    config,
    schema: { tags, summary: '检查应用能否打包（列出阻止打包的问题）', body: contracts.AppPackageCheckBody, response: env(contracts.AppPackageCheckResult) },
    handler: async (request) => {
      const c = ctx(request);
      await assertAppAdministered(c, request.body.appCode);
      return ok({ problems: await appProblems(deps.db, c.engineCode, request.body.appCode) });
    },
  });
  app.post('/v1/app-package/export', {
    config,
    schema: { tags, summary: '把应用导出为应用包', body: contracts.AppPackageExportBody, response: env(contracts.AppPackageStoredResult) },
    handler: async (request) => {
      const c = ctx(request);
      await assertAppAdministered(c, request.body.appCode);
      const built = await buildAppPackage(deps, c.engineCode, request.body.appCode, { sampleData: request.body.sampleData, createdBy: c.userId });
      return ok({ ...built, problems: [] });
    },
  });
  app.get('/v1/app-package/download', {
    config,
    schema: { tags, summary: '下载应用包文件', querystring: contracts.AppPackageIdBody },
    handler: async (request, reply) => {
      const c = ctx(request);
      await assertInstaller(c);
      const row = await ownPackageRow(deps.db, request.query.packageId, c.engineCode);
      const bytes = await packageBytes(deps, row.id, c.engineCode);
      const name = `${(row.summary as contracts.PackageSummary).name}.tritium-app.tar.gz`;
      return reply.header('content-type', PACKAGE_TYPE).header('content-disposition', contentDisposition(name, PACKAGE_TYPE, true)).header('cache-control', 'no-store').send(bytes);
    },
  });
  app.post('/v1/app-package/info', {
    config,
    schema: { tags, summary: '应用包的内容与角色、部门的匹配', body: contracts.AppPackageIdBody, response: env(contracts.AppPackageInfoResult) },
    handler: async (request) => {
      const c = ctx(request);
      await assertInstaller(c);
      return ok(await info(c, deps, request.body.packageId));
    },
  });
  app.post('/v1/app-package/install', {
    config,
    schema: { tags, summary: '安装应用包（后台任务）', body: contracts.AppPackageInstallBody, response: env(z.object({ actionId: z.string() })) },
    handler: async (request) => {
      const { packageId, ...opts } = request.body;
      const c = ctx(request);
      await assertInstaller(c);
      await ownPackageRow(deps.db, packageId, c.engineCode);
      return ok(await startPackageInstall(c, packageId, opts));
    },
  });
  app.get('/v1/app-package/install/progress', {
    config,
    schema: { tags, summary: '安装进度', querystring: contracts.AppPackageActionBody, response: env(contracts.AppPackageInstallProgress) },
    handler: async (request) => ok(await installProgress(ctx(request), request.query.actionId)),
  });
  app.post('/v1/app-package/install/cancel', {
    config,
    schema: { tags, summary: '取消安装', body: contracts.AppPackageActionBody, response: env(contracts.AppPackageInstallProgress) },
    handler: async (request) => ok(await cancelInstall(ctx(request), request.body.actionId)),
  });
  app.post('/v1/app-package/install/retry', {
    config,
    schema: { tags, summary: '重试超时或失败的安装', body: contracts.AppPackageActionBody, response: env(contracts.AppPackageInstallProgress) },
    handler: async (request) => ok(await retryInstall(ctx(request), request.body.actionId)),
  });

  // The upload reads the raw body (no multipart library; as /v1/file/upload), in its own scope.
  app.register(async (scope: TypedApp) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.post('/v1/app-package/upload', {
      config,
      schema: { tags, summary: '上传应用包文件（请求体为文件内容），检查后保存', response: env(contracts.AppPackageStoredResult) },
      handler: async (request, reply) => {
        const c = ctx(request);
        await assertInstaller(c);
        try {
          const bytes = await readCapped(request.body as Readable);
          const stored = await storePackageFile(deps, bytes, c.engineCode, c.userId);
          return ok({ ...stored, problems: [] });
        } catch (error) {
          if (error instanceof AppError && error.errorName === 'AppPackageTooLarge') reply.header('connection', 'close');
          throw error;
        }
      },
    });
  });
}
