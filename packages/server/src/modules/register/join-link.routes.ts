import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { TypedApp } from '../../lib/route-types.ts';
import { RATE_LIMITS } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import type { SignInDeps } from '../auth/sign-in.service.ts';
import { invitationLinkInfo } from '../org/invitation-link.service.ts';
import { joinByLink } from './join-link.service.ts';

const tags = ['注册'];

/** The public side of invitation links (docs/decisions/0112): what the link shows, and joining through it. */
export function joinLinkRoutes(app: TypedApp, deps: SignInDeps): void {
  app.get('/v1/org/invitation/link/info', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '邀请链接信息（组织、邀请人、部门）', querystring: contracts.InvitationLinkInfoQuery, response: { 200: successEnvelopeOf(contracts.InvitationLinkInfo) } },
    handler: async (request) => ok(await invitationLinkInfo(deps.db, request.query.token)),
  });

  app.post('/v1/org/invitation/link/join', {
    config: { access: 'optional', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '通过邀请链接加入组织', body: contracts.JoinByLinkBody, response: { 200: successEnvelopeOf(contracts.JoinByLinkResult) } },
    handler: async (request) => {
      // A session one engine's identity provider vouched for (bound to that engine) says nothing for another engine.
      const actor = request.actor;
      const accountId = actor && !actor.isGuest && !actor.claims.eng ? actor.accountId : null;
      return ok(await joinByLink(deps, accountId, request.body));
    },
  });
}
