import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import * as query from './query.service.ts';
import { previewAs } from './preview.service.ts';

const tags = ['业务数据'];
// Every member of the engine may call; the service decides (a form one may not open is 404; docs/decisions/0013).
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** The query engine's calls (calls.md §7 "Business data"), at the spec's paths. */
export function queryRoutes(app: TypedApp, deps: { db: Db; now?: () => number }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  const options = () => ({ now: new Date(deps.now?.() ?? Date.now()) });

  app.post('/v1/bizdata/query', {
    config,
    schema: { tags, summary: '分页查询业务数据（筛选、排序、数据范围）', body: contracts.BizQueryBody, response: env(contracts.BizQueryResult) },
    handler: async (request) => ok(await query.queryRecords(ctx(request), request.body, options())),
  });
  app.post('/v1/bizdata/count', {
    config,
    schema: { tags, summary: '统计符合筛选的业务数据条数（只计数，不取分页）', body: contracts.BizCountBody, response: env(contracts.BizCountResult) },
    handler: async (request) => ok({ total: await query.countRecords(ctx(request), request.body, options()) }),
  });
  app.post('/v1/bizdata/column/stat', {
    config,
    schema: { tags, summary: '数字列统计：计数、求和、平均、最小、最大', body: contracts.ColumnStatBody, response: env(contracts.ColumnStatResult) },
    handler: async (request) => ok(await query.columnStat(ctx(request), request.body, options())),
  });
  app.post('/v1/bizdata/distinctPropertyValue', {
    config,
    schema: { tags, summary: '列的不同值（分页）', body: contracts.DistinctValueBody, response: env(contracts.DistinctValueResult) },
    handler: async (request) => ok(await query.distinctValues(ctx(request), request.body, options())),
  });
  app.post('/v1/form/permission/preview', {
    config,
    schema: { tags: ['表单权限'], summary: '以成员身份预览：该成员看到的列表首页与一条数据（应用管理员）', body: contracts.FormPreviewBody, response: env(contracts.FormPreviewResult) },
    handler: async (request) => ok(await previewAs(ctx(request), request.body)),
  });
}
