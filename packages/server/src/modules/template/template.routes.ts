import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import type { FileStore } from '../files/file-store.ts';
import { builtInDir as defaultBuiltInDir, registerBuiltInTemplates } from './builtin-registry.ts';
import { templateContextOf, type TemplateDeps } from './template-context.ts';
import { checkPublish, publishTemplate, removeTemplate } from './template.service.ts';
import { listTemplates, templateInfo, templatePicture } from './template-market.service.ts';
import { checkSampleData, clearSampleData, installTemplate, templateInstallProgress } from './template-install.service.ts';
import { shareApp } from './template-share.service.ts';

const tags = ['模板中心'];
// Every member of the engine reads the market; the services decide who publishes, installs and removes.
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/**
 * Templates and sharing (calls.md §"Apps and nodes": /v1/template/*, /v1/share/app/publish; docs/decisions/0131).
 * The built-in templates are registered when the server starts listening (a process that never listens, as the
 * tests' injected apps, registers none unless it calls registerBuiltInTemplates); market reads during the
 * registration wait for it.
 */
export function templateRoutes(app: TypedApp, options: { db: Db; store: FileStore; builtInDir?: string }): void {
  const builtInDir = options.builtInDir ?? defaultBuiltInDir();
  let registering: Promise<void> | undefined;
  app.addHook('onListen', async () => {
    registering = registerBuiltInTemplates({ db: options.db, store: options.store }, builtInDir).then(
      (result) => {
        app.log.info({ registered: result.registered, unchanged: result.unchanged.length }, 'built-in templates');
        for (const f of result.failed) app.log.error({ file: f.file, reason: f.reason }, 'built-in template not registered');
      },
      (error: unknown) => app.log.error({ err: error }, 'built-in templates not registered'),
    );
    await registering;
  });
  const builtInsReady = () => registering ?? Promise.resolve();
  const deps: TemplateDeps = { db: options.db, store: options.store, builtInDir, builtInsReady };
  const ctx = (request: Parameters<typeof templateContextOf>[0]) => templateContextOf(request, options.db);

  app.get('/v1/template/list', {
    config,
    schema: { tags, summary: '模板列表（分类、搜索、分页）', querystring: contracts.TemplateListQuery, response: env(contracts.TemplateListResult) },
    handler: async (request) => ok(await listTemplates(ctx(request), deps, request.query)),
  });
  app.get('/v1/template/info', {
    config,
    schema: { tags, summary: '模板详情', querystring: contracts.TemplateIdQuery, response: env(contracts.TemplateInfo) },
    handler: async (request) => ok(await templateInfo(ctx(request), deps, request.query.templateId)),
  });
  app.get('/v1/template/picture', {
    config,
    schema: { tags, summary: '模板截图', querystring: contracts.TemplatePictureQuery },
    handler: async (request, reply) => {
      const picture = await templatePicture(ctx(request), deps, request.query.templateId, request.query.index);
      return reply.type(picture.contentType).header('cache-control', 'private, max-age=300').send(picture.body);
    },
  });
  app.post('/v1/template/checkPublish', {
    config,
    schema: { tags, summary: '检查应用能否发布为模板', body: contracts.CheckPublishBody, response: env(contracts.CheckPublishResult) },
    handler: async (request) => ok(await checkPublish(ctx(request), deps, request.body)),
  });
  app.post('/v1/template/publish', {
    config,
    schema: { tags, summary: '发布应用为模板（再次发布为新版本）', body: contracts.PublishTemplateBody, response: env(contracts.ShareAppResult.pick({ templateId: true, version: true })) },
    handler: async (request) => ok(await publishTemplate(ctx(request), deps, request.body)),
  });
  app.post('/v1/template/remove', {
    config,
    schema: { tags, summary: '删除模板（已安装的应用不受影响）', body: contracts.RemoveTemplateBody, response: env(contracts.EmptyResult) },
    handler: async (request) => {
      await removeTemplate(ctx(request), deps, request.body.templateId);
      return ok({});
    },
  });
  app.post('/v1/template/install', {
    config,
    schema: { tags, summary: '安装模板（后台任务）', body: contracts.InstallTemplateBody, response: env(contracts.InstallStartedResult) },
    handler: async (request) => ok(await installTemplate(ctx(request), deps, request.body)),
  });
  app.get('/v1/template/install/progress', {
    config,
    schema: { tags, summary: '安装进度', querystring: contracts.InstallProgressQuery, response: env(contracts.InstallProgressResult) },
    handler: async (request) => ok(await templateInstallProgress(ctx(request), request.query.actionId)),
  });
  app.post('/v1/template/checksampledata', {
    config,
    schema: { tags, summary: '应用中的示例数据', body: contracts.SampleDataBody, response: env(contracts.SampleDataResult) },
    handler: async (request) => ok(await checkSampleData(ctx(request), request.body.appCode)),
  });
  app.post('/v1/template/clearsampledata', {
    config,
    schema: { tags, summary: '清除应用中的示例数据', body: contracts.SampleDataBody, response: env(contracts.ClearSampleDataResult) },
    handler: async (request) => ok(await clearSampleData(ctx(request), request.body.appCode)),
  });
  app.post('/v1/share/app/publish', {
    config,
    schema: { tags, summary: '共享应用给其他组织', body: contracts.ShareAppBody, response: env(contracts.ShareAppResult) },
    handler: async (request) => ok(await shareApp(ctx(request), deps, request.body)),
  });
}
