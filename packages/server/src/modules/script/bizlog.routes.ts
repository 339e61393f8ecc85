import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { listBizLog } from './bizlog.service.ts';

const tags = ['业务日志'];
// Members call; the service decides (the app administered, docs/decisions/0118).
const config = { access: 'engine' } as const;

export function bizLogRoutes(app: TypedApp, deps: { db: Db }): void {
  app.get('/v1/toolkit/bizlog/list', {
    config,
    schema: { tags, summary: '业务日志（按应用、表单、级别、时间、内容筛选，最新的在前）', querystring: contracts.BizLogListQuery, response: { 200: successEnvelopeOf(contracts.BizLogListResult) } },
    handler: async (request) => ok(await listBizLog(nodeContextOf(request, deps.db), request.query)),
  });
}
