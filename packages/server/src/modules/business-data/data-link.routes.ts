import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { associationFill, associationList } from './association.service.ts';
import { loadDataLinkBatch } from './data-link.service.ts';

const tags = ['业务数据'];
// Every member may call; the form must be one they may open (404 otherwise), and the other form is read with their
// access (docs/decisions/0016).
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** Data links and association lists (calls.md §7 "Business data": /loaddatalink/batch, association list endpoints). */
export function dataLinkRoutes(app: TypedApp, deps: { db: Db }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  app.post('/v1/form/loaddatalink/batch', {
    config,
    schema: { tags, summary: '数据联动：按条件取其他表单第一条匹配数据的字段（可一次多个）', body: contracts.DataLinkBatchBody, response: env(contracts.DataLinkBatchResult) },
    handler: async (request) => ok(await loadDataLinkBatch(ctx(request), request.body)),
  });
  app.post('/v1/form/association/list', {
    config,
    schema: { tags, summary: '关联表单可选的数据（按数据范围限定，标题搜索）', body: contracts.AssociationListBody, response: env(contracts.AssociationListResult) },
    handler: async (request) => ok(await associationList(ctx(request), request.body)),
  });
  app.post('/v1/form/association/fill', {
    config,
    schema: { tags, summary: '选择关联数据后填充的字段与关联属性', body: contracts.AssociationFillBody, response: env(contracts.AssociationFillResult) },
    handler: async (request) => ok(await associationFill(ctx(request), request.body)),
  });
}
