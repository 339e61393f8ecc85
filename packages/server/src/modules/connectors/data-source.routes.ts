import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { engineOf, nodeContextOf } from '../function-node/node-context.ts';
import type { OutsideDeps } from './connector-client.ts';
import { dataSourceConnectors, loadDataSource, queryDataSource, saveDataSource } from './data-source.ts';

const tags = ['连接器'];
const engine = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** The data-source node (docs/decisions/0123). */
export function dataSourceRoutes(app: TypedApp, deps: { db: Db } & OutsideDeps): void {
  const outside: OutsideDeps = { http: deps.http, timeoutMs: deps.timeoutMs, maxBytes: deps.maxBytes };
  const node = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);

  app.get('/v1/connectors/datasource/get', {
    config: engine,
    schema: { tags, summary: '数据源节点的设置（能打开该节点的成员）', querystring: contracts.DataSourceNodeQuery, response: env(contracts.DataSourceDto) },
    handler: async (request) => ok(await loadDataSource(node(request), request.query.nodeCode)),
  });
  app.post('/v1/connectors/datasource/save', {
    config: engine,
    schema: { tags, summary: '保存数据源节点的设置（应用管理员）', body: contracts.DataSourceSaveBody, response: env(contracts.DataSourceDto) },
    handler: async (request) => ok(await saveDataSource(node(request), request.body as { nodeCode: string; definition: contracts.DataSourceDefinition })),
  });
  app.post('/v1/connectors/datasource/query', {
    config: engine,
    schema: { tags, summary: '数据源：按页和筛选条件调用连接器，返回列、行与总数', body: contracts.DataSourceQueryBody, response: env(contracts.DataSourceQueryResult) },
    handler: async (request) => ok(await queryDataSource(node(request), request.body as Required<contracts.DataSourceQueryBody> & { filters: Record<string, string> }, outside)),
  });
  app.get('/v1/connectors/datasource/connectors', {
    config: engine,
    schema: { tags, summary: '可作数据源的连接器（GET 或 POST，带列表输出）：名称、列表字段与占位名', response: env(contracts.DataSourceConnectorsResult) },
    handler: async (request) => ok(await dataSourceConnectors(engineOf(node(request)))),
  });
}
