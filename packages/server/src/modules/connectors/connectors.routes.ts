import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { engineOf, inEngineTransaction, nodeContextOf } from '../function-node/node-context.ts';
import type { OutsideDeps } from './connector-client.ts';
import * as connections from './connections.service.ts';
import * as connectors from './connectors.service.ts';
import { callConnector, checkConnection, listCalls } from './connector-calls.ts';
import { pressAdvancedButton } from './advanced-button.ts';
import { setScriptConnectorDeps } from './script-connectors.ts';
// Registers the connector plugin's `call` (and custom plugins') for POST /v2/plugin/invoke.
import './connector-plugin.ts';

const tags = ['连接器'];
// Connections and connectors are the Administrator's; members press advanced buttons and see connector names.
const admin = { access: 'admin' } as const;
const engine = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/** Connection configs, connectors, their delivery log, and the advanced button (/v1/connectors/*). */
export function connectorRoutes(app: TypedApp, deps: { db: Db } & OutsideDeps): void {
  const outside: OutsideDeps = { http: deps.http, timeoutMs: deps.timeoutMs, maxBytes: deps.maxBytes };
  setScriptConnectorDeps(outside);
  const node = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  // A change and its operation-log entry in one transaction (docs/decisions/0113).
  const change = <T>(request: Parameters<typeof nodeContextOf>[0], work: (edb: ReturnType<typeof engineOf>, actor: connections.Actor) => Promise<T>) => {
    const actor = node(request);
    return inEngineTransaction(actor, (edb) => work(edb, actor));
  };
  // Calls that leave the platform run outside a transaction: their log row and the status stay whatever happens next.
  const direct = (request: Parameters<typeof nodeContextOf>[0]) => {
    const actor = node(request);
    return { edb: engineOf(actor), engineCode: actor.engineCode, actor };
  };

  app.get('/v1/connectors/connection/list', {
    config: admin,
    schema: { tags, summary: '连接列表（密钥只显示是否已设置）', response: env(contracts.ConnectionListResult) },
    handler: async (request) => ok(await connections.listConnections(direct(request).edb)),
  });
  app.get('/v1/connectors/connection/get', {
    config: admin,
    schema: { tags, summary: '一个连接的设置', querystring: contracts.ConnectionCodeQuery, response: env(contracts.ConnectionDto) },
    handler: async (request) => ok(await connections.getConnection(direct(request).edb, request.query.code)),
  });
  app.post('/v1/connectors/connection/save', {
    config: admin,
    schema: { tags, summary: '新建或修改连接；密钥留空则保留原密钥', body: contracts.ConnectionSaveBody, response: env(contracts.ConnectionDto) },
    handler: async (request) => ok(await change(request, (edb, actor) => connections.saveConnection(edb, actor, request.body))),
  });
  app.post('/v1/connectors/connection/remove', {
    config: admin,
    schema: { tags, summary: '删除连接（须先删除其连接器）', body: contracts.ConnectionCodeBody, response: env(contracts.ConnectionCodeBody) },
    handler: async (request) => ok(await change(request, (edb, actor) => connections.removeConnection(edb, actor, request.body.code))),
  });
  app.post('/v1/connectors/connection/enable', {
    config: admin,
    schema: { tags, summary: '启用或停用连接', body: contracts.ConnectionEnableBody, response: env(contracts.ConnectionDto) },
    handler: async (request) => ok(await change(request, (edb, actor) => connections.setConnectionEnabled(edb, actor, request.body.code, request.body.enabled))),
  });
  app.post('/v1/connectors/connection/test', {
    config: admin,
    schema: { tags, summary: '测试连接：立即做一次健康检查', body: contracts.ConnectionCodeBody, response: env(contracts.ConnectionTestResult) },
    handler: async (request) => {
      const { edb, engineCode } = direct(request);
      return ok(await checkConnection(edb, engineCode, request.body.code, outside));
    },
  });
  app.get('/v1/connectors/connector/list', {
    config: admin,
    schema: { tags, summary: '连接器列表（可按连接筛选）', querystring: contracts.ConnectorListQuery, response: env(contracts.ConnectorListResult) },
    handler: async (request) => ok(await connectors.listConnectors(direct(request).edb, request.query.connectionCode)),
  });
  app.post('/v1/connectors/connector/save', {
    config: admin,
    schema: { tags, summary: '新建或修改连接器', body: contracts.ConnectorSaveBody, response: env(contracts.ConnectorDto) },
    handler: async (request) => ok(await change(request, (edb, actor) => connectors.saveConnector(edb, actor, request.body))),
  });
  app.post('/v1/connectors/connector/remove', {
    config: admin,
    schema: { tags, summary: '删除连接器', body: contracts.ConnectionCodeBody, response: env(contracts.ConnectionCodeBody) },
    handler: async (request) => ok(await change(request, (edb, actor) => connectors.removeConnector(edb, actor, request.body.code))),
  });
  app.post('/v1/connectors/connector/run', {
    config: admin,
    schema: { tags, summary: '用给定的值试运行连接器', body: contracts.ConnectorRunBody, response: env(contracts.ConnectorRunResult) },
    handler: async (request) => {
      const { edb, engineCode } = direct(request);
      return ok(await callConnector(edb, engineCode, request.body.code, request.body.values, outside, 'console'));
    },
  });
  app.get('/v1/connectors/log', {
    config: admin,
    schema: { tags, summary: '调用日志（最新的在前，保留 30 天）', querystring: contracts.ConnectorLogQuery, response: env(contracts.ConnectorLogResult) },
    handler: async (request) => ok(await listCalls(direct(request).edb, request.query)),
  });
  app.get('/v1/connectors/choices', {
    config: engine,
    schema: { tags, summary: '可供高级按钮选择的连接器（名称与输出名）', response: env(contracts.ConnectorChoicesResult) },
    handler: async (request) => ok(await connectors.connectorChoices(direct(request).edb)),
  });
  app.post('/v1/connectors/button', {
    config: engine,
    schema: { tags, summary: '高级按钮：运行其连接器，返回要填入表单的值', body: contracts.ButtonCallBody, response: env(contracts.ButtonCallResult) },
    handler: async (request) => {
      const { edb, actor } = direct(request);
      return ok(await pressAdvancedButton(edb, actor, request.body, outside));
    },
  });
}
