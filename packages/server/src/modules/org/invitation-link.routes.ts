import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { orgContextOf } from './org-context.ts';
import { createInvitationLink, listInvitationLinks, revokeInvitationLink } from './invitation-link.service.ts';

const tags = ['组织架构管理'];
// Only Administrators issue, list and turn off links (docs/decisions/0112), as every organisation change (0003).
const config = { access: 'admin' } as const;

/** The administrator's side of invitation links; the public side (info, join) is in the register module. */
export function invitationLinkRoutes(app: TypedApp, deps: { db: Db }): void {
  const ctx = (request: Parameters<typeof orgContextOf>[0]) => orgContextOf(request, deps.db);
  app.post('/v1/org/invitation/link/create', {
    config,
    schema: { tags, summary: '生成邀请链接（含有效期与加入部门）', body: contracts.CreateInvitationLinkBody, response: { 200: successEnvelopeOf(contracts.CreatedInvitationLink) } },
    handler: async (request) => ok(await createInvitationLink(ctx(request), request.body)),
  });
  app.get('/v1/org/invitation/link/list', {
    config,
    schema: { tags, summary: '本组织的邀请链接', response: { 200: successEnvelopeOf(contracts.InvitationLinkListResult) } },
    handler: async (request) => ok({ list: await listInvitationLinks(ctx(request)) }),
  });
  app.post('/v1/org/invitation/link/revoke', {
    config,
    schema: { tags, summary: '关闭邀请链接（立即失效）', body: contracts.RevokeInvitationLinkBody, response: { 200: successEnvelopeOf(contracts.InvitationLinkDto) } },
    handler: async (request) => ok(await revokeInvitationLink(ctx(request), request.body.id)),
  });
}
