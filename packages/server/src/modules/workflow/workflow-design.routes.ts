import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { dryRun, templateActivityList } from './workflow-design.service.ts';

const tags = ['流程'];
// Every member of the engine may call; the service decides: the dry run is the form's app administrators', the
// activity list anyone's who may open the form (docs/decisions/0018).
const config = { access: 'engine' } as const;

/** The workflow designer's calls: the dry run and the published template's activities. */
export function workflowDesignRoutes(app: TypedApp, deps: { db: Db }): void {
  app.post('/v1/workflow/template/dryrun', {
    config,
    schema: {
      tags,
      summary: '试运行流程设计：样例数据会走的路径及各节点的处理人',
      body: contracts.WfDryRunBody,
      response: { 200: successEnvelopeOf(contracts.WfDryRunResult) },
    },
    handler: async (request) => ok(await dryRun(nodeContextOf(request, deps.db), request.body)),
  });
  app.get('/v1/workflow/template/activity/list', {
    config,
    schema: {
      tags,
      summary: '已发布流程的节点列表',
      querystring: contracts.WfTemplateQuery,
      response: { 200: successEnvelopeOf(contracts.WfTemplateActivityListResult) },
    },
    handler: async (request) => ok(await templateActivityList(nodeContextOf(request, deps.db), request.query.schemaCode)),
  });
}
