import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from './node-context.ts';
import * as queries from './function-node-query.service.ts';
import * as nodes from './function-node.service.ts';
import { copyProgress, retryAppCopy, startAppCopy } from './app-copy.job.ts';

const tags = ['应用与功能节点'];
// Every member reads what they may open and writes what they administer (checked in the services, docs/decisions/0004).
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** Apps and function nodes (calls.md §7 "Apps and nodes"), at the spec's paths. */
export function functionNodeRoutes(app: TypedApp, deps: { db: Db }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);

  // ---- Reads ----
  app.get('/v1/functionnode/app/list', {
    config,
    schema: { tags, summary: '应用列表（含子节点树与默认表单）', querystring: contracts.AppListQuery, response: env(contracts.AppListResult) },
    handler: async (request) => ok({ list: await queries.appList(ctx(request), request.query.withChildren === 'true') }),
  });
  app.get('/v1/functionnode/app/hasdashboard', {
    config,
    schema: { tags, summary: '是否有可访问的仪表盘', response: env(contracts.HasDashboardResult) },
    handler: async (request) => ok({ hasDashboard: await queries.hasDashboard(ctx(request)) }),
  });
  app.get('/v1/functionnode/app/subadminapplist', {
    config,
    schema: { tags, summary: '当前用户管理的应用（子管理员的应用列表）', response: env(contracts.SubAdminAppListResult) },
    handler: async (request) => ok({ list: await queries.subAdminAppList(ctx(request)) }),
  });
  app.get('/v1/functionnode/app/hascode/list', {
    config,
    schema: { tags, summary: '当前用户管理的应用编码', response: env(contracts.AdminAppCodesResult) },
    handler: async (request) => ok(await queries.adminAppCodes(ctx(request))),
  });
  app.get('/v1/functionnode/app/status', {
    config,
    schema: { tags, summary: '应用状态', querystring: contracts.AppStatusQuery, response: env(contracts.AppStatusResult) },
    handler: async (request) => ok(await queries.appStatus(ctx(request), request.query.appCode)),
  });
  app.get('/v1/functionNode/app/feature/list', {
    config,
    schema: { tags, summary: '应用内的功能节点', querystring: contracts.FeatureListQuery, response: env(contracts.FeatureListResult) },
    handler: async (request) => ok(await queries.featureList(ctx(request), request.query.appCode)),
  });
  app.post('/v1/functionnode/children', {
    config,
    schema: { tags, summary: '子节点', body: contracts.ChildrenBody, response: env(contracts.NodeListResult) },
    handler: async (request) => ok({ list: await queries.children(ctx(request), request.body) }),
  });
  app.post('/v1/functionnode/list/bykeyword', {
    config,
    schema: { tags, summary: '按关键字查找节点', body: contracts.NodeKeywordBody, response: env(contracts.NodeListResult) },
    handler: async (request) => ok({ list: await queries.byKeyword(ctx(request), request.body) }),
  });
  app.post('/v1/functionnode/list/bycodes', {
    config,
    schema: { tags, summary: '按编码取节点', body: contracts.NodeCodesBody, response: env(contracts.NodeListResult) },
    handler: async (request) => ok({ list: await queries.byCodes(ctx(request), request.body.codes) }),
  });
  app.post('/v1/functionnode/auth/bycodes', {
    config,
    schema: { tags, summary: '按编码取当前用户的节点权限', body: contracts.NodeCodesBody, response: env(contracts.NodeAuthResult) },
    handler: async (request) => ok({ list: await queries.authByCodes(ctx(request), request.body.codes) }),
  });

  // ---- Writes ----
  app.post('/v1/functionnode', {
    config,
    schema: { tags, summary: '新建应用或功能节点', body: contracts.CreateNodeBody, response: env(contracts.NodeResult) },
    handler: async (request) => ok(await nodes.createNode(ctx(request), request.body)),
  });
  app.post('/v1/functionnode/update', {
    config,
    schema: { tags, summary: '修改节点', body: contracts.UpdateNodeBody, response: env(contracts.NodeResult) },
    handler: async (request) => ok(await nodes.updateNode(ctx(request), request.body)),
  });
  app.post('/v1/functionnode/remove', {
    config,
    schema: { tags, summary: '删除节点（应用连同其全部内容）', body: contracts.RemoveNodeBody, response: env(contracts.RemovedResult) },
    handler: async (request) => ok({ removed: await nodes.removeNode(ctx(request), request.body.code) }),
  });
  app.put('/v1/functionnode/sort', {
    config,
    schema: { tags, summary: '排序：排在 preCode 之后，或排到最前', body: contracts.SortNodeBody, response: env(contracts.NodeResult) },
    handler: async (request) => ok(await nodes.sortNode(ctx(request), request.body)),
  });
  app.post('/v1/functionnode/move', {
    config,
    schema: { tags, summary: '移动节点', body: contracts.MoveNodeBody, response: env(contracts.NodeResult) },
    handler: async (request) => ok(await nodes.moveNode(ctx(request), request.body)),
  });
  app.post('/v1/functionNode/checkmove', {
    config,
    schema: { tags, summary: '检查能否移动', body: contracts.MoveNodeBody, response: env(contracts.CheckResult) },
    handler: async (request) => ok(await nodes.checkMove(ctx(request), request.body)),
  });
  app.post('/v1/functionNode/checkcopy', {
    config,
    schema: { tags, summary: '检查能否复制应用', body: contracts.CopyNodeBody, response: env(contracts.CheckResult) },
    handler: async (request) => ok(await nodes.checkCopy(ctx(request), request.body.code)),
  });
  app.post('/v1/functionnode/copy', {
    config,
    schema: { tags, summary: '复制应用（后台任务）', body: contracts.CopyNodeBody, response: env(contracts.CopyStartedResult) },
    handler: async (request) => ok(await startAppCopy(ctx(request), request.body.code)),
  });
  app.get('/v1/functionnode/copy/progress', {
    config,
    schema: { tags, summary: '复制进度', querystring: contracts.CopyProgressQuery, response: env(contracts.CopyProgressResult) },
    handler: async (request) => ok(await copyProgress(ctx(request), request.query.actionId)),
  });
  app.post('/v1/functionnode/copy/retry', {
    config,
    schema: { tags, summary: '重试超时的复制', body: contracts.CopyRetryBody, response: env(contracts.CopyProgressResult) },
    handler: async (request) => ok(await retryAppCopy(ctx(request), request.body.actionId)),
  });

  // ---- Node permissions (Administrators) ----
  app.post('/v1/functionnode/auth/set', {
    config: { access: 'admin' },
    schema: { tags, summary: '设置用户或角色对节点的权限', body: contracts.SetNodePermissionBody, response: env(contracts.EmptyResult) },
    handler: async (request) => {
      await nodes.setPermission(ctx(request), request.body);
      return ok({});
    },
  });
  app.post('/v1/functionnode/auth/list', {
    config: { access: 'admin' },
    schema: { tags, summary: '节点的授权列表', body: contracts.CodeBody, response: env(contracts.NodePermissionListResult) },
    handler: async (request) => ok({ list: await nodes.listPermissions(ctx(request), request.body.code) }),
  });
}
