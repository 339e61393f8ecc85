import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import * as workbench from './workbench.service.ts';

const tags = ['工作台'];
const config = { access: 'engine' } as const;

/** The workbench (calls.md §7 "Schema, views, workbench"); POST /v1/workbench/visit is ours (docs/decisions/0004). */
export function workbenchRoutes(app: TypedApp, deps: { db: Db }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  app.get('/v1/workbench/config', {
    config,
    schema: { tags, summary: '当前用户的工作台配置', response: { 200: successEnvelopeOf(contracts.WorkbenchConfigResult) } },
    handler: async (request) => ok(await workbench.getConfig(ctx(request))),
  });
  app.get('/v1/workbench/config/default', {
    config,
    schema: { tags, summary: '默认工作台配置', response: { 200: successEnvelopeOf(contracts.WorkbenchConfigResult) } },
    handler: async () => ok({ config: workbench.DEFAULT_WORKBENCH_CONFIG, isDefault: true }),
  });
  app.post('/v1/workbench/saveconfig', {
    config,
    schema: { tags, summary: '保存工作台配置', body: contracts.SaveWorkbenchConfigBody, response: { 200: successEnvelopeOf(contracts.WorkbenchConfigResult) } },
    handler: async (request) => ok(await workbench.saveConfig(ctx(request), request.body)),
  });
  app.post('/v1/workbench/visit', {
    config,
    schema: { tags, summary: '记录打开了应用或节点', body: contracts.WorkbenchVisitBody, response: { 200: successEnvelopeOf(contracts.EmptyResult) } },
    handler: async (request) => {
      await workbench.recordVisit(ctx(request), request.body.code);
      return ok({});
    },
  });
  app.get('/v1/workbench/recentactivity', {
    config,
    schema: { tags, summary: '最近访问', querystring: contracts.RecentActivityQuery, response: { 200: successEnvelopeOf(contracts.RecentActivityResult) } },
    handler: async (request) => ok({ list: await workbench.recentActivity(ctx(request), request.query.limit) }),
  });
}
