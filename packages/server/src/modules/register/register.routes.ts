import { contracts } from '@tritium/shared';
import type { TypedApp } from '../../lib/route-types.ts';
import { RATE_LIMITS } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { findAccountByMobile } from '../account/account.repo.ts';
import type { SignInDeps } from '../auth/sign-in.service.ts';
import { registerEngine, SCALES } from './register.service.ts';
import { joinLinkRoutes } from './join-link.routes.ts';

const tags = ['注册'];

export function registerRoutes(app: TypedApp, deps: SignInDeps): void {
  app.get('/v1/register/validate', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '校验手机号是否已注册', querystring: contracts.RegisterValidateQuery },
    handler: async (request) => ok({ registered: !!(await findAccountByMobile(deps.db, request.query.mobile)) }),
  });

  app.get('/v1/register/getscalelist', {
    config: { access: 'public' },
    schema: { tags, summary: '组织规模选项' },
    handler: async () => ok({ list: SCALES.map((s) => ({ ...s })) }),
  });

  app.post('/v1/register/engine', {
    config: { access: 'optional', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '注册组织', body: contracts.RegisterEngineBody },
    handler: async (request) => {
      const accountId = request.actor && !request.actor.isGuest ? request.actor.accountId : null;
      return ok(await registerEngine(deps, accountId, request.body));
    },
  });

  joinLinkRoutes(app, deps);
}
