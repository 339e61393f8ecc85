import { z } from 'zod';
import { sql } from 'kysely';
import { contracts } from '@tritium/shared';
import type { TypedApp } from '../../lib/route-types.ts';
import { RATE_LIMITS } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf, engineCodeHeader } from '../../plugins/auth.ts';
import { sendVerifyCode, guestLogin, passwordLogin, refreshToken, resetPassword, verifyCodeLogin, type SignInDeps } from './sign-in.service.ts';

const tags = ['登录与账号'];

export function signInRoutes(app: TypedApp, deps: SignInDeps): void {
  app.post('/v1/captcha/verifycode/send', {
    // Per client address limit: counted in the database by the verification-code service (docs/decisions/0027).
    config: { access: 'public' },
    schema: { tags, summary: '发送验证码', body: contracts.SendVerifyCodeBody },
    handler: async (request) => ok(await sendVerifyCode(deps, request.body.mobile, request.body.scene, request.ip)),
  });

  for (const url of ['/v1/login/mobile/password', '/v1/login/tokens/password']) {
    app.post(url, {
      config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
      schema: { tags, summary: '手机号密码登录', body: contracts.PasswordLoginBody },
      handler: async (request) => ok(await passwordLogin(deps, request.body)),
    });
  }

  app.get('/v1/login/mobile/verifycode', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '验证码登录', querystring: contracts.VerifyCodeLoginQuery },
    handler: async (request) => ok(await verifyCodeLogin(deps, request.query)),
  });

  app.put('/v1/login/password/reset', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '重置密码', body: contracts.ResetPasswordBody },
    handler: async (request) => {
      await resetPassword(deps, request.body);
      return ok({});
    },
  });

  app.post('/v1/login/h3/guest', {
    config: { access: 'public', rateLimit: RATE_LIMITS.signIn },
    schema: { tags, summary: '访客登录', body: contracts.GuestLoginBody },
    handler: async (request) => ok(await guestLogin(deps, request.body.engineCode)),
  });

  app.get('/v1/token/refresh', {
    config: { access: 'optional' },
    schema: { tags, summary: '刷新访问令牌' },
    handler: async (request) => {
      // 'optional' lets the client refresh from any page; without a valid token the answer is 401. A token that could
      // not be checked because the database is away must not sign the person out: that answers 503 (0027).
      if (!request.actor && request.headers.authorization) await sql`select 1`.execute(deps.db);
      const actor = actorOf(request);
      return ok(await refreshToken(deps, actor.claims, engineCodeHeader(request)));
    },
  });

  app.get('/Login/Logout', {
    config: { access: 'optional' },
    schema: { tags, summary: '退出登录', querystring: z.object({}).passthrough() },
    handler: async (request) => {
      if (request.actor) await deps.tokens.revoke(request.actor.claims);
      return ok({});
    },
  });
}
