import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { listForms, listTab } from './flow-center.service.ts';
import { rapidApprove } from './flow-center.rapid.ts';
import { homeOnAction } from './flow-center.legacy.ts';

const tags = ['流程中心'];
// Every member of the engine; each list holds only the caller's own items and instances (docs/decisions/0019).
const config = { access: 'engine' } as const;

/** The flow center's calls: the tab lists, the form filter, rapid approval, and the legacy /Home/OnAction. */
export function flowCenterRoutes(app: TypedApp, deps: { db: Db; now?: () => number }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  app.post('/v1/workflow/todos/list', {
    config,
    schema: { tags, summary: '流程中心列表：待办、待阅、我发起的、已办、全部', body: contracts.FlowCenterListBody, response: { 200: successEnvelopeOf(contracts.FlowCenterListResult) } },
    // Overdue (已超时) is judged by the server's clock, the one the time-limit sweep runs on (docs/decisions/0042).
    handler: async (request) => ok(await listTab(ctx(request), request.body, { now: new Date(deps.now?.() ?? Date.now()) })),
  });
  app.get('/v1/workflow/todos/forms', {
    config,
    schema: { tags, summary: '我参与的流程所在的表单（筛选用）', response: { 200: successEnvelopeOf(contracts.FlowCenterFormsResult) } },
    handler: async (request) => ok(await listForms(ctx(request))),
  });
  app.post('/v1/workflow/todos/rapid-approve', {
    config,
    schema: { tags, summary: '快速审批：批量同意所选审批待办（逐条答复）', body: contracts.RapidApproveBody, response: { 200: successEnvelopeOf(contracts.RapidApproveResult) } },
    handler: async (request) => ok(await rapidApprove(ctx(request), request.body)),
  });

  // The legacy call posts a form body `PostData=<json>`: its own scope reads that content type (and JSON).
  app.register(async (scope: TypedApp) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    scope.post('/Home/OnAction', {
      config,
      schema: { tags, summary: '旧版首页调用：待办列表与快速审批（PostData 中的 ActionName）' },
      handler: async (request) => homeOnAction(ctx(request), request.body),
    });
  });
}
