import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { AppError } from '../../lib/app-error.ts';
import { actorOf } from '../../plugins/auth.ts';
import { acceptAssociation, associatedCodeInfo, createAssociatedCode, endAssociation, listAssociations, makeOrgAndAccept, type AssociationDeps } from './associated-org.service.ts';
import { addAssociatedMembers, listAssociatedMembers, removeAssociatedMembers } from './associated-members.service.ts';

const tags = ['关联组织'];
const admin = { access: 'admin' } as const;
// The partner's side of /ass-org and /make-org: a signed-in person, in no particular engine (they choose one).
const account = { access: 'account' } as const;
const associationResult = { 200: successEnvelopeOf(contracts.AssociatedOrgDto) };
const membersChanged = { 200: successEnvelopeOf(contracts.AssociatedMembersChanged) };

/** Associated organisations (关联组织, calls.md §2 /ass-org and /make-org; docs/decisions/0091). */
export function associatedOrgRoutes(app: TypedApp, deps: AssociationDeps): void {
  const engineOf = (request: Parameters<typeof actorOf>[0]) => actorOf(request).engine!.engine_code;
  /** The account acting on the partner's side; a session bound to one engine (SSO, a chat platform) acts for that engine only. */
  const partnerAccount = (request: Parameters<typeof actorOf>[0], engineCode?: string) => {
    const actor = actorOf(request);
    if (actor.claims.eng && actor.claims.eng !== engineCode) throw new AppError('EngineAccessDenied', { status: 403 });
    return actor.accountId!;
  };

  // ---- The host's administrator ----
  app.post('/v1/org/associated/code/create', {
    config: admin,
    schema: { tags, summary: '生成关联邀请链接（有效期内可使用一次）', body: contracts.CreateAssociatedCodeBody, response: associationResult },
    handler: async (request) => ok(await createAssociatedCode(deps, { engineCode: engineOf(request), userId: actorOf(request).userId! }, request.body.validDays)),
  });
  app.get('/v1/org/associated/list', {
    config: admin,
    schema: { tags, summary: '本组织的关联组织（作为邀请方和被邀请方）', response: { 200: successEnvelopeOf(contracts.AssociatedOrgListResult) } },
    handler: async (request) => ok({ list: await listAssociations(deps, engineOf(request)) }),
  });
  app.post('/v1/org/associated/end', {
    config: admin,
    schema: { tags, summary: '解除关联（或撤回未使用的邀请链接）', body: contracts.AssociatedOrgIdBody, response: associationResult },
    handler: async (request) => ok(await endAssociation(deps, engineOf(request), request.body.id)),
  });

  // ---- The partner's administrator: /ass-org, /make-org ----
  app.get('/v1/org/associated/code', {
    config: account,
    schema: { tags, summary: '关联邀请信息与可关联的组织', querystring: contracts.AssociatedCodeQuery, response: { 200: successEnvelopeOf(contracts.AssociatedCodeInfo) } },
    handler: async (request) => ok(await associatedCodeInfo(deps, actorOf(request).accountId!, request.query.associatedCode)),
  });
  app.post('/v1/org/associated/accept', {
    config: account,
    schema: { tags, summary: '以所管理的组织接受关联邀请', body: contracts.AcceptAssociationBody, response: associationResult },
    handler: async (request) => ok(await acceptAssociation(deps, partnerAccount(request, request.body.engineCode), request.body.associatedCode, request.body.engineCode)),
  });
  app.post('/v1/org/associated/make-org', {
    config: account,
    schema: { tags, summary: '创建组织并接受关联邀请', body: contracts.MakeOrgBody, response: { 200: successEnvelopeOf(contracts.MakeOrgResult) } },
    handler: async (request) => ok(await makeOrgAndAccept(deps, partnerAccount(request), request.body.associatedCode, request.body.engineName)),
  });

  // ---- Who of the partner takes part ----
  app.get('/v1/org/associated/member/list', {
    config: admin,
    schema: { tags, summary: '参与关联的成员', querystring: contracts.AssociatedOrgIdQuery, response: { 200: successEnvelopeOf(contracts.AssociatedMemberListResult) } },
    handler: async (request) => ok({ list: await listAssociatedMembers(deps, engineOf(request), request.query.id) }),
  });
  app.post('/v1/org/associated/member/add', {
    config: admin,
    schema: { tags, summary: '选择本组织成员加入对方组织（作为外部用户）', body: contracts.AssociatedMembersBody, response: membersChanged },
    handler: async (request) => ok(await addAssociatedMembers(deps, engineOf(request), request.body.id, request.body.userIds)),
  });
  app.post('/v1/org/associated/member/remove', {
    config: admin,
    schema: { tags, summary: '移出参与关联的成员（其在对方组织的登录立即失效）', body: contracts.AssociatedMembersBody, response: membersChanged },
    handler: async (request) => ok(await removeAssociatedMembers(deps, engineOf(request), request.body.id, request.body.userIds)),
  });
}
