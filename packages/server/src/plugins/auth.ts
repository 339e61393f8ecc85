import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/types.ts';
import { AppError } from '../lib/app-error.ts';
import type { TokenClaims, TokenService } from '../modules/auth/token.service.ts';
import { findEngine, findEngineMember, type EngineRow } from '../modules/engine/engine.repo.ts';
import { assertEngineUsable } from '../modules/engine/engine-state.ts';

/**
 * What a route requires of the caller (conventions.md §6: every route declares it; start-up refuses one that does not).
 * - public: nobody needs to be signed in; a token is ignored.
 * - optional: a valid token is read when present (register a second engine, sign out).
 * - account: a signed-in person, no engine needed.
 * - engine: a signed-in person acting in the engine of the EngineCode header.
 * - admin: as engine, and an Administrator of that engine.
 */
export type Access = 'public' | 'optional' | 'account' | 'engine' | 'admin';

/** The person behind a request, resolved once per request. */
export interface Actor {
  claims: TokenClaims;
  accountId: string | null;
  engine?: EngineRow;
  userId?: string;
  userName?: string;
  mobile?: string;
  authType?: number;
  isExternal?: boolean;
  isGuest: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** With access 'engine': an anonymous guest session may call it. */
    allowGuest?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export const AUTH_TYPE_ADMINISTRATOR = 1;
export const AUTH_TYPE_ANONYMOUS = 4;

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1]?.trim() || undefined;
}

function engineCodeHeader(request: FastifyRequest): string | undefined {
  const value = request.headers.enginecode;
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

export function registerAuth(app: FastifyInstance, deps: { db: Db; tokens: TokenService }): void {
  const { db, tokens } = deps;
  app.decorateRequest('actor', null);

  /** Verifies the token and the account behind it; throws 401/403 AppErrors. */
  async function authenticate(token: string): Promise<Actor> {
    const claims = await tokens.verify(token);
    if (await tokens.isRevoked(claims.jti)) throw new AppError('NotAuth');
    if (claims.kind === 'guest') return { claims, accountId: null, isGuest: true };
    const account = await db
      .selectFrom('platform.accounts')
      .select(['id', 'state', 'tokens_valid_after'])
      .where('id', '=', claims.sub)
      .executeTakeFirst();
    if (!account) throw new AppError('NotAuth');
    if (claims.iatMs < new Date(account.tokens_valid_after).getTime()) throw new AppError('NotAuth');
    if (account.state === 'disabled') throw new AppError('UserDisabled', { status: 403 });
    return { claims, accountId: account.id, isGuest: false };
  }

  /** Binds the actor to the engine named by the EngineCode header (or the guest's engine). */
  async function enterEngine(request: FastifyRequest, actor: Actor, allowGuest: boolean): Promise<void> {
    if (actor.isGuest) {
      if (!allowGuest) throw new AppError('Forbidden');
      const engine = await findEngine(db, actor.claims.eng ?? '');
      const asked = engineCodeHeader(request);
      if (!engine || (asked && asked !== engine.engine_code)) throw new AppError('EngineAccessDenied');
      assertEngineUsable(engine, 403);
      Object.assign(actor, { engine, userId: 'guest', userName: '访客', authType: AUTH_TYPE_ANONYMOUS, isExternal: true });
      return;
    }
    let engineCode = engineCodeHeader(request);
    if (!engineCode) {
      const account = await db.selectFrom('platform.accounts').select('last_engine_code').where('id', '=', actor.accountId!).executeTakeFirst();
      engineCode = account?.last_engine_code ?? undefined;
      if (!engineCode) throw new AppError('ArgumentIsNull', { message: '缺少 EngineCode 请求头', status: 200 });
    }
    const member = await findEngineMember(db, actor.accountId!, engineCode);
    if (!member) {
      if (!(await findEngine(db, engineCode))) throw new AppError('EngineNotExist', { status: 403 });
      throw new AppError('EngineAccessDenied');
    }
    assertEngineUsable(member.engine, 403);
    if (member.userState === 'disabled') throw new AppError('UserDisabled', { status: 403 });
    Object.assign(actor, {
      engine: member.engine,
      userId: member.userId,
      userName: member.userName,
      mobile: member.mobile,
      authType: member.authType,
      isExternal: member.isExternal,
    });
  }

  app.addHook('onRoute', (route) => {
    const access = (route.config as { access?: Access } | undefined)?.access;
    const url = route.url.toLowerCase();
    const isApi = url.startsWith('/v1') || url.startsWith('/v2') || url.startsWith('/login') || url.startsWith('/home');
    if (isApi && !access) throw new Error(`route ${route.method} ${route.url} declares no access (public, optional, account, engine or admin)`);
  });

  app.addHook('preHandler', async (request) => {
    const config = request.routeOptions.config;
    const access = config.access;
    if (!access || access === 'public') return;
    const token = bearerToken(request);
    if (access === 'optional') {
      if (!token) return;
      try {
        request.actor = await authenticate(token);
      } catch {
        request.actor = null;
      }
      return;
    }
    if (!token) throw new AppError('NotAuth');
    const actor = await authenticate(token);
    request.actor = actor;
    if (access === 'account') {
      if (actor.isGuest) throw new AppError('Forbidden');
      return;
    }
    await enterEngine(request, actor, access === 'engine' && !!config.allowGuest);
    if (access === 'admin' && actor.authType !== AUTH_TYPE_ADMINISTRATOR) throw new AppError('Forbidden');
  });
}

/** The actor of a route whose access guarantees one. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('NotAuth');
  return request.actor;
}
