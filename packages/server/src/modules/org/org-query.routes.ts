import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { orgReadContextOf } from './org-context.ts';
import * as query from './org-query.service.ts';

const tags = ['组织架构'];
// Reads: any signed-in member of the engine; guest sessions are refused (no allowGuest).
const config = { access: 'engine' } as const;

/** The read calls of calls.md §7 "Organisation" (paths as the spec writes them), plus role groups and posts. */
export function orgQueryRoutes(app: TypedApp, deps: { db: Db }): void {
  // What the caller may see (internal: everything; external: their own external organisation) is resolved here, once.
  const ctx = (request: Parameters<typeof orgReadContextOf>[0]) => orgReadContextOf(request, deps.db);

  app.post('/v1/org/user/list', {
    config,
    schema: { tags, summary: '用户列表（按部门、角色、岗位筛选；pageIndex 从 0 开始，默认每页 50，-1 为全部）', body: contracts.OrgUserListBody, response: { 200: successEnvelopeOf(contracts.OrgUserListResult) } },
    handler: async (request) => ok(await query.listUsers(await ctx(request), request.body)),
  });
  app.post('/v1/org/department/list', {
    config,
    schema: { tags, summary: '部门列表（子部门或整棵子树）', body: contracts.OrgDepartmentListBody, response: { 200: successEnvelopeOf(contracts.OrgDepartmentListResult) } },
    handler: async (request) => ok(await query.listDepartments(await ctx(request), request.body)),
  });
  app.post('/v1/org/association/list', {
    config,
    schema: { tags, summary: '用户所属的部门、角色和岗位', body: contracts.OrgAssociationListBody, response: { 200: successEnvelopeOf(contracts.OrgAssociationListResult) } },
    handler: async (request) => ok(await query.listAssociations(await ctx(request), request.body)),
  });
  app.post('/v1/org/search', {
    config,
    schema: { tags, summary: '搜索人员、部门、角色（汉字、全拼、拼音首字母、手机号）', body: contracts.OrgSearchBody, response: { 200: successEnvelopeOf(contracts.OrgSearchResult) } },
    handler: async (request) => ok(await query.search(await ctx(request), request.body)),
  });
  app.post('/v1/org/list', {
    config,
    schema: { tags, summary: '组织选择器：某部门下的子部门和成员', body: contracts.OrgListBody, response: { 200: successEnvelopeOf(contracts.OrgListResult) } },
    handler: async (request) => ok(await query.listChildren(await ctx(request), request.body)),
  });
  app.post('/v1/org/currentandchild', {
    config,
    schema: { tags, summary: '当前部门及其全部下级部门', body: contracts.OrgCurrentAndChildBody, response: { 200: successEnvelopeOf(contracts.OrgCurrentAndChildResult) } },
    handler: async (request) => ok(await query.currentAndChild(await ctx(request), request.body)),
  });
  app.post('/v1/org/unit/checkRange', {
    config,
    schema: { tags, summary: '校验组织单元是否在范围内', body: contracts.OrgCheckRangeBody, response: { 200: successEnvelopeOf(contracts.OrgCheckRangeResult) } },
    handler: async (request) => ok(await query.checkRange(await ctx(request), request.body)),
  });
  app.post('/v1/org/unit/batch', {
    config,
    schema: { tags, summary: '按 id 批量获取组织单元', body: contracts.OrgUnitBatchBody, response: { 200: successEnvelopeOf(contracts.OrgUnitBatchResult) } },
    handler: async (request) => ok(await query.unitBatch(await ctx(request), request.body)),
  });
  app.post('/v1/org/info/byids', {
    config,
    schema: { tags, summary: '按 id 获取组织信息（用户、部门、角色）', body: contracts.OrgInfoByIdsBody, response: { 200: successEnvelopeOf(contracts.OrgInfoByIdsResult) } },
    handler: async (request) => ok(await query.infoByIds(await ctx(request), request.body)),
  });
  app.post('/v1/org/search/byname', {
    config,
    schema: { tags, summary: '按名称精确查找（导入匹配）', body: contracts.OrgSearchByNameBody, response: { 200: successEnvelopeOf(contracts.OrgSearchByNameResult) } },
    handler: async (request) => ok(await query.searchByName(await ctx(request), request.body)),
  });
  app.get('/v1/org/role/list', {
    config,
    schema: { tags, summary: '角色列表', querystring: contracts.OrgRoleListQuery, response: { 200: successEnvelopeOf(contracts.OrgRoleListResult) } },
    handler: async (request) => ok(await query.listRoles(await ctx(request), request.query)),
  });
  app.get('/v1/org/rolegroup/list', {
    config,
    schema: { tags, summary: '角色组列表', querystring: contracts.OrgRoleGroupListQuery, response: { 200: successEnvelopeOf(contracts.OrgRoleGroupListResult) } },
    handler: async (request) => ok(await query.listRoleGroups(await ctx(request), request.query)),
  });
  app.get('/v1/org/post/list', {
    config,
    schema: { tags, summary: '岗位列表', querystring: contracts.OrgPostListQuery, response: { 200: successEnvelopeOf(contracts.OrgPostListResult) } },
    handler: async (request) => ok(await query.listPosts(await ctx(request), request.query)),
  });
  app.get('/v1/org/user', {
    config,
    schema: { tags, summary: '用户详情（不传 id 为当前用户）', querystring: contracts.OrgUserQuery, response: { 200: successEnvelopeOf(contracts.OrgUserResult) } },
    handler: async (request) => ok(await query.getUser(await ctx(request), request.query.id)),
  });
  app.get('/v1/org/department', {
    config,
    schema: { tags, summary: '部门详情（不传 id 为公司根部门）', querystring: contracts.OrgDepartmentQuery, response: { 200: successEnvelopeOf(contracts.OrgDepartmentResult) } },
    handler: async (request) => ok(await query.getDepartment(await ctx(request), request.query.id)),
  });
  app.get('/v1/org/unit/info', {
    config,
    schema: { tags, summary: '组织单元信息', querystring: contracts.OrgUnitInfoQuery, response: { 200: successEnvelopeOf(contracts.OrgUnitInfoResult) } },
    handler: async (request) => ok(await query.getUnitInfo(await ctx(request), request.query.id)),
  });
  app.get('/v1/org/external/department/list', {
    config,
    schema: { tags, summary: '外部组织的部门列表', querystring: contracts.OrgExternalDepartmentListQuery, response: { 200: successEnvelopeOf(contracts.OrgExternalDepartmentListResult) } },
    handler: async (request) => ok(await query.listExternalDepartments(await ctx(request), request.query)),
  });
}
