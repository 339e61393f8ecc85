import { contracts } from '@tritium/shared';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf, AUTH_TYPE_ADMINISTRATOR } from '../../plugins/auth.ts';
import { presentEngine } from '../engine/engine.presenter.ts';
import { updateAccount } from '../account/account.repo.ts';

const tags = ['用户'];

function presentUserInfo(request: FastifyRequest) {
  const actor = actorOf(request);
  const engine = actor.engine!;
  return {
    user: {
      userId: actor.userId!,
      accountId: actor.accountId,
      name: actor.userName!,
      mobile: actor.mobile ?? null,
      authType: actor.authType!,
      isAdmin: actor.authType === AUTH_TYPE_ADMINISTRATOR,
      isExternal: !!actor.isExternal,
      companyId: engine.company_id,
    },
    currentEngine: presentEngine(engine, !!actor.isExternal),
  };
}

export function userRoutes(app: TypedApp, deps: { db: Db }): void {
  app.get('/v1/user/info', {
    config: { access: 'engine', allowGuest: true },
    schema: { tags, summary: '当前用户信息（含当前组织）' },
    handler: async (request) => ok(presentUserInfo(request)),
  });

  app.get('/v1/user/reload', {
    config: { access: 'engine', allowGuest: true },
    schema: { tags, summary: '重新加载当前用户信息' },
    handler: async (request) => {
      const actor = actorOf(request);
      // Reloading in an engine makes it the one the next sign-in starts in.
      if (actor.accountId) await updateAccount(deps.db, actor.accountId, { last_engine_code: actor.engine!.engine_code });
      return ok(presentUserInfo(request));
    },
  });
}
