import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { engineOf, inEngineTransaction, nodeContextOf } from '../function-node/node-context.ts';
import * as custom from './custom-plugins.service.ts';
import { invoke, listInstances } from './plugin-invoke.ts';
import * as plugins from './plugins.service.ts';

const tags = ['插件'];
// Installing and authoring plugins is the Administrator's; members list instances and call them.
const admin = { access: 'admin' } as const;
const engine = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** Plugin management (/v1/plugin/*), the members' list of plugin instances, and POST /v2/plugin/invoke. */
export function pluginRoutes(app: TypedApp, deps: { db: Db } & plugins.PluginDeps): void {
  const node = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  const outside: plugins.PluginDeps = { http: deps.http, publicUrl: deps.publicUrl };
  // A change and its operation-log entry in one transaction (docs/decisions/0113).
  const change = <T>(request: Parameters<typeof nodeContextOf>[0], work: (edb: ReturnType<typeof engineOf>, actor: ReturnType<typeof node>) => Promise<T>) => {
    const actor = node(request);
    return inEngineTransaction(actor, (edb) => work(edb, actor));
  };

  app.get('/v1/plugin/catalogue', {
    config: admin,
    schema: { tags, summary: '插件目录及本组织的安装状态（密钥只显示是否已设置）', response: env(contracts.PluginCatalogueResult) },
    handler: async (request) => ok(await plugins.catalogue(engineOf(node(request)))),
  });
  app.post('/v1/plugin/install', {
    config: admin,
    schema: { tags, summary: '安装插件：校验设置，安装中 → 安装检查 → 已安装', body: contracts.PluginInstallBody, response: env(contracts.PluginChangeResult) },
    handler: async (request) => ok(await plugins.install(node(request), outside, request.body)),
  });
  app.post('/v1/plugin/settings', {
    config: admin,
    schema: { tags, summary: '修改已安装插件的设置；密钥留空则保留原密钥', body: contracts.PluginSettingsBody, response: env(contracts.PluginChangeResult) },
    handler: async (request) => ok(await plugins.changeSettings(node(request), outside, request.body)),
  });
  app.post('/v1/plugin/uninstall', {
    config: admin,
    schema: { tags, summary: '卸载插件：设置和已写入的数据都保留', body: contracts.PluginCodeBody, response: env(contracts.PluginChangeResult) },
    handler: async (request) => ok(await plugins.uninstall(node(request), request.body.code)),
  });
  app.get('/v1/plugin/custom/list', {
    config: admin,
    schema: { tags, summary: '本组织自建的插件', response: env(contracts.CustomPluginListResult) },
    handler: async (request) => ok(await custom.listCustom(engineOf(node(request)))),
  });
  app.post('/v1/plugin/custom/save', {
    config: admin,
    schema: { tags, summary: '新建或修改自建插件（回到预发布）', body: contracts.CustomPluginSaveBody, response: env(contracts.CustomPluginDto) },
    handler: async (request) => ok(await change(request, (edb, actor) => custom.saveCustom(edb, actor, request.body))),
  });
  app.post('/v1/plugin/custom/submit', {
    config: admin,
    schema: { tags, summary: '提交审核：预发布 → 审核中', body: contracts.PluginCodeBody, response: env(contracts.CustomPluginDto) },
    handler: async (request) => ok(await change(request, (edb, actor) => custom.submitCustom(edb, actor, request.body.code))),
  });
  app.post('/v1/plugin/custom/review', {
    config: admin,
    schema: { tags, summary: '审核：通过 → 已发布，退回 → 预发布（须写原因）', body: contracts.CustomPluginReviewBody, response: env(contracts.CustomPluginDto) },
    handler: async (request) => ok(await change(request, (edb, actor) => custom.reviewCustom(edb, actor, request.body))),
  });
  app.post('/v1/plugin/custom/remove', {
    config: admin,
    schema: { tags, summary: '删除未安装的自建插件', body: contracts.PluginCodeBody, response: env(contracts.PluginCodeBody) },
    handler: async (request) => ok(await change(request, (edb, actor) => custom.removeCustom(edb, actor, request.body.code))),
  });
  app.get('/v1/plugin/instances', {
    config: engine,
    schema: { tags, summary: '本组织的插件实例（不含设置）', response: env(contracts.PluginInstanceListResult) },
    handler: async (request) => ok(await listInstances(engineOf(node(request)))),
  });
  app.post('/v2/plugin/invoke', {
    config: engine,
    schema: { tags, summary: '调用已安装插件的方法', body: contracts.PluginInvokeBody, response: env(contracts.PluginInvokeResult) },
    handler: async (request) => ok(await invoke(node(request), outside, request.body)),
  });
}
