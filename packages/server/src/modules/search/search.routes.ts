import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { localeOf } from '../../lib/locale.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { searchAll, searchNodes, searchRecords } from './search.service.ts';

const tags = ['全文搜索'];
// Every member of the engine may search; the answers hold only what the policy lets them open and read.
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** Full-text search (calls.md "Search"), at the spec's paths. */
export function searchRoutes(app: TypedApp, deps: { db: Db }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);

  app.get('/v1/toolkit/fulltext/search', {
    config,
    schema: { tags, summary: '搜索数据（标题、文本、选项、流水号；按应用和表单分组）', querystring: contracts.FulltextSearchQuery, response: env(contracts.FulltextSearchResult) },
    handler: async (request) => ok(await searchRecords(ctx(request), request.query, { locale: localeOf(request) })),
  });
  app.get('/v1/fulltextsearch/nodes', {
    config,
    schema: { tags, summary: '搜索应用和功能节点（名称）', querystring: contracts.NodeSearchQuery, response: env(contracts.NodeSearchResult) },
    handler: async (request) => ok(await searchNodes(ctx(request), request.query)),
  });
  app.get('/GlobalSearch/SearchByKey', {
    config,
    schema: { tags, summary: '全局搜索（旧接口：节点和数据）', querystring: contracts.GlobalSearchQuery, response: env(contracts.GlobalSearchResult) },
    handler: async (request) => ok(await searchAll(ctx(request), request.query.keyword, { locale: localeOf(request) })),
  });
}
