import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { FileStore } from '../files/file-store.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { changeOwner } from './record-owner.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import * as records from './record.service.ts';
import * as query from './bizdata-query.service.ts';
import { listDataLog } from './data-log.ts';
import { formRightsOf } from './form-rights.service.ts';
import { phoneSignRoutes } from './phone-sign.routes.ts';

const tags = ['业务数据'];
// Every member of the engine may call; the services decide (docs/decisions/0007): a form one may not open is 404,
// changing a record needs its creator, owner or an app administrator.
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

/**
 * The form runtime and business data (calls.md §7 "Business data"), at the spec's paths. Submit starts the form's
 * flow through `startWorkflow`, which the app hands in (workflow stands above business data).
 */
export function businessDataRoutes(app: TypedApp, deps: { db: Db; fileStore: FileStore; startWorkflow: records.StartWorkflow }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  phoneSignRoutes(app, deps);

  app.post('/v1/form/loaddata', {
    config,
    schema: { tags, summary: '加载表单数据（新建时为默认值）与可执行的操作', body: contracts.LoadDataBody, response: env(contracts.LoadDataResult) },
    handler: async (request) => ok(await records.loadData(ctx(request), request.body)),
  });
  app.post('/v1/form/permission/mine', {
    config,
    schema: { tags, summary: '我对表单数据的权限（操作、数据范围、字段权限）；应用管理员可预览某成员的权限', body: contracts.FormRightsBody, response: env(contracts.FormRightsResult) },
    handler: async (request) => ok(await formRightsOf(ctx(request), request.body)),
  });
  app.post('/v1/form/action/execute', {
    config,
    schema: { tags, summary: '执行表单操作：暂存、提交、提交并新增、删除、复制', body: contracts.ExecuteBody, response: env(contracts.ExecuteResult) },
    handler: async (request) => ok(await records.execute(ctx(request), request.body, { store: deps.fileStore }, deps.startWorkflow)),
  });
  app.post('/v1/form/datalog/list', {
    config,
    schema: { tags, summary: '数据日志（最新在前）', body: contracts.DataLogListBody, response: env(contracts.DataLogListResult) },
    handler: async (request) => ok(await listDataLog(ctx(request), request.body)),
  });
  // POST /v1/bizdata/query is served by the query engine (modules/query, docs/decisions/0013).
  app.post('/v1/bizdata/property/value', {
    config,
    schema: { tags, summary: '读取一条数据的一个字段', body: contracts.PropertyValueBody, response: env(contracts.PropertyValueResult) },
    handler: async (request) => ok(await query.propertyValue(ctx(request), request.body)),
  });
  app.post('/v1/bizdata/byids', {
    config,
    schema: { tags, summary: '按 ObjectId 批量读取业务数据（最多500条）', body: contracts.ByIdsBody, response: env(contracts.ByIdsResult) },
    handler: async (request) => ok(await query.recordsByIds(ctx(request), request.body)),
  });
  app.post('/v1/bizdata/owner/change', {
    config,
    schema: { tags, summary: '修改数据的拥有者（最多500条；需“修改拥有者”权限）', body: contracts.ChangeOwnerBody, response: env(contracts.ChangeOwnerResult) },
    handler: async (request) => ok(await changeOwner(ctx(request), request.body)),
  });
}
