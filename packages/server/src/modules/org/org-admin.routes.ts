import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { orgContextOf } from './org-context.ts';
import * as departments from './department.service.ts';
import * as users from './user-admin.service.ts';
import * as roles from './role.service.ts';

const tags = ['组织架构管理'];
// Only Administrators change the organisation (issue 3).
const config = { access: 'admin' } as const;
const emptyResult = { 200: successEnvelopeOf(contracts.EmptyResult) };
const changedResult = { 200: successEnvelopeOf(contracts.ChangedResult) };

/** Administration of departments, users, role groups, roles and posts (paths chosen in docs/decisions/0003). */
export function orgAdminRoutes(app: TypedApp, deps: { db: Db }): void {
  const ctx = (request: Parameters<typeof orgContextOf>[0]) => orgContextOf(request, deps.db);

  // ---- Departments ----
  app.post('/v1/org/department/create', {
    config,
    schema: { tags, summary: '新建部门', body: contracts.CreateDepartmentBody, response: { 200: successEnvelopeOf(contracts.DepartmentResult) } },
    handler: async (request) => ok(await departments.createDepartment(ctx(request), request.body)),
  });
  app.post('/v1/org/department/update', {
    config,
    schema: { tags, summary: '修改部门（名称、主管、排序）', body: contracts.UpdateDepartmentBody, response: { 200: successEnvelopeOf(contracts.DepartmentResult) } },
    handler: async (request) => ok(await departments.updateDepartment(ctx(request), request.body)),
  });
  app.post('/v1/org/department/move', {
    config,
    schema: { tags, summary: '移动部门（连同下级部门和成员）', body: contracts.MoveDepartmentBody, response: { 200: successEnvelopeOf(contracts.DepartmentResult) } },
    handler: async (request) => ok(await departments.moveDepartment(ctx(request), request.body)),
  });
  app.post('/v1/org/department/remove', {
    config,
    schema: { tags, summary: '删除空部门', body: contracts.RemoveDepartmentBody, response: emptyResult },
    handler: async (request) => {
      await departments.removeDepartment(ctx(request), request.body.id);
      return ok({});
    },
  });

  // ---- Users ----
  app.post('/v1/org/user/create', {
    config,
    schema: { tags, summary: '添加用户（并邀请其手机号加入）', body: contracts.CreateUserBody, response: { 200: successEnvelopeOf(contracts.UserDetailResult) } },
    handler: async (request) => ok(await users.createUser(ctx(request), request.body)),
  });
  app.post('/v1/org/user/invite', {
    config,
    schema: { tags, summary: '按手机号邀请成员', body: contracts.InviteUserBody, response: { 200: successEnvelopeOf(contracts.UserDetailResult) } },
    handler: async (request) => ok(await users.inviteUser(ctx(request), request.body)),
  });
  app.post('/v1/org/user/update', {
    config,
    schema: { tags, summary: '修改用户', body: contracts.UpdateUserBody, response: { 200: successEnvelopeOf(contracts.UserDetailResult) } },
    handler: async (request) => ok(await users.updateUser(ctx(request), request.body)),
  });
  app.post('/v1/org/user/disable', {
    config,
    schema: { tags, summary: '停用用户（其登录立即失效）', body: contracts.UserStateBody, response: emptyResult },
    handler: async (request) => {
      await users.setUserState(ctx(request), request.body.id, 'disabled');
      return ok({});
    },
  });
  app.post('/v1/org/user/enable', {
    config,
    schema: { tags, summary: '重新启用用户', body: contracts.UserStateBody, response: emptyResult },
    handler: async (request) => {
      await users.setUserState(ctx(request), request.body.id, 'active');
      return ok({});
    },
  });
  app.post('/v1/org/user/move', {
    config,
    schema: { tags, summary: '调整用户部门', body: contracts.MoveUsersBody, response: changedResult },
    handler: async (request) => ok(await users.moveUsers(ctx(request), request.body)),
  });

  // ---- Role groups and roles ----
  app.post('/v1/org/rolegroup/create', {
    config,
    schema: { tags, summary: '新建角色组', body: contracts.CreateRoleGroupBody, response: { 200: successEnvelopeOf(contracts.RoleGroupResult) } },
    handler: async (request) => ok(await roles.createRoleGroup(ctx(request), request.body.name)),
  });
  app.post('/v1/org/rolegroup/update', {
    config,
    schema: { tags, summary: '重命名角色组', body: contracts.UpdateRoleGroupBody, response: { 200: successEnvelopeOf(contracts.RoleGroupResult) } },
    handler: async (request) => ok(await roles.renameRoleGroup(ctx(request), request.body.id, request.body.name)),
  });
  app.post('/v1/org/rolegroup/remove', {
    config,
    schema: { tags, summary: '删除空角色组', body: contracts.IdBody, response: emptyResult },
    handler: async (request) => {
      await roles.removeRoleGroup(ctx(request), request.body.id);
      return ok({});
    },
  });
  app.post('/v1/org/role/create', {
    config,
    schema: { tags, summary: '新建角色', body: contracts.CreateRoleBody, response: { 200: successEnvelopeOf(contracts.RoleResult) } },
    handler: async (request) => ok(await roles.createRole(ctx(request), request.body)),
  });
  app.post('/v1/org/role/update', {
    config,
    schema: { tags, summary: '修改角色（名称、所属角色组）', body: contracts.UpdateRoleBody, response: { 200: successEnvelopeOf(contracts.RoleResult) } },
    handler: async (request) => ok(await roles.updateRole(ctx(request), request.body)),
  });
  app.post('/v1/org/role/remove', {
    config,
    schema: { tags, summary: '删除角色（连同其成员关系）', body: contracts.IdBody, response: emptyResult },
    handler: async (request) => {
      await roles.removeRoleOrPost(ctx(request), 'Role', request.body.id);
      return ok({});
    },
  });
  app.post('/v1/org/role/member/add', {
    config,
    schema: { tags, summary: '添加角色成员', body: contracts.RoleMembersBody, response: changedResult },
    handler: async (request) => ok(await roles.changeMembers(ctx(request), 'Role', request.body.roleId, request.body.userIds, 'add')),
  });
  app.post('/v1/org/role/member/remove', {
    config,
    schema: { tags, summary: '移除角色成员', body: contracts.RoleMembersBody, response: changedResult },
    handler: async (request) => ok(await roles.changeMembers(ctx(request), 'Role', request.body.roleId, request.body.userIds, 'remove')),
  });

  // ---- Posts ----
  app.post('/v1/org/post/create', {
    config,
    schema: { tags, summary: '新建岗位', body: contracts.CreatePostBody, response: { 200: successEnvelopeOf(contracts.PostResult) } },
    handler: async (request) => ok(await roles.createPost(ctx(request), request.body.name)),
  });
  app.post('/v1/org/post/update', {
    config,
    schema: { tags, summary: '重命名岗位', body: contracts.UpdatePostBody, response: { 200: successEnvelopeOf(contracts.PostResult) } },
    handler: async (request) => ok(await roles.renamePost(ctx(request), request.body.id, request.body.name)),
  });
  app.post('/v1/org/post/remove', {
    config,
    schema: { tags, summary: '删除岗位（连同任职关系）', body: contracts.IdBody, response: emptyResult },
    handler: async (request) => {
      await roles.removeRoleOrPost(ctx(request), 'Post', request.body.id);
      return ok({});
    },
  });
  app.post('/v1/org/post/member/add', {
    config,
    schema: { tags, summary: '添加岗位人员', body: contracts.PostMembersBody, response: changedResult },
    handler: async (request) => ok(await roles.changeMembers(ctx(request), 'Post', request.body.postId, request.body.userIds, 'add')),
  });
  app.post('/v1/org/post/member/remove', {
    config,
    schema: { tags, summary: '移除岗位人员', body: contracts.PostMembersBody, response: changedResult },
    handler: async (request) => ok(await roles.changeMembers(ctx(request), 'Post', request.body.postId, request.body.userIds, 'remove')),
  });
}
