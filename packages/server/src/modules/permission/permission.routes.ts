import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { listPermissionGroups, removePermissionGroup, savePermissionGroup } from './permission.service.ts';

const tags = ['表单权限'];
// Members call; the service decides (the form's app administered, docs/decisions/0037).
const config = { access: 'engine' } as const;
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });

export function permissionRoutes(app: TypedApp, deps: { db: Db }): void {
  const ctx = (request: Parameters<typeof nodeContextOf>[0]) => nodeContextOf(request, deps.db);
  app.post('/v1/form/permission/group/list', {
    config,
    schema: { tags, summary: '表单的权限组', body: contracts.PermissionGroupListBody, response: env(contracts.PermissionGroupListResult) },
    handler: async (request) => ok(await listPermissionGroups(ctx(request), request.body.schemaCode)),
  });
  app.post('/v1/form/permission/group/save', {
    config,
    schema: { tags, summary: '新建或修改权限组（成员、操作、数据范围、字段权限）', body: contracts.PermissionGroupSaveBody, response: env(contracts.PermissionGroupSaveResult) },
    handler: async (request) => ok(await savePermissionGroup(ctx(request), request.body)),
  });
  app.post('/v1/form/permission/group/remove', {
    config,
    schema: { tags, summary: '删除权限组', body: contracts.PermissionGroupRemoveBody, response: env(contracts.PermissionGroupRemoveResult) },
    handler: async (request) => ok(await removePermissionGroup(ctx(request), request.body)),
  });
}
