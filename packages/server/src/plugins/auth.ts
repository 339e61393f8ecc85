import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db, EngineRow } from '../db/types.ts';
import { AppError } from '../lib/app-error.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { TokenClaims, TokenService } from './token.ts';
import { assertEngineUsable, findEngine } from '../modules/request-context/engine-state.ts';
import { ContextCaches, type ContextSnapshot } from '../modules/request-context/context.ts';
import { readAccount, readAccountInEngine, readGuestEngine, type AccountPart, type EnginePart } from '../modules/request-context/context-statement.ts';

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
  /** Roles and cache versions read with the actor in the request's context statement (docs/decisions/0032). */
  context?: ContextSnapshot;
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

/** The `enginecode` header: the engine a request names (first value, trimmed), or undefined. */
export function engineCodeHeader(request: FastifyRequest): string | undefined {
  const value = request.headers.enginecode;
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

const declaredAccess = new WeakMap<FastifyInstance, Map<string, string | undefined>>();

/** Every route of an app ("METHOD /path") with the access it declares (the access-matrix test reads it). */
export function routeAccessOf(app: FastifyInstance): ReadonlyMap<string, string | undefined> {
  return declaredAccess.get(app) ?? new Map();
}

/** Registers authentication; answers the app's request-context caches (the open API checks against them too). */
export function registerAuth(app: FastifyInstance, deps: { db: Db; tokens: TokenService }): ContextCaches {
  const { db, tokens } = deps;
  // This app's request-context caches (docs/decisions/0032); every request checks them against the versions its
  // context statement read.
  const caches = new ContextCaches();
  app.decorateRequest('actor', null);

  /** The account checks, in the order the answers are given: revoked or stale token, no account, disabled account. */
  function checkAccount(claims: TokenClaims, account: AccountPart | undefined): AccountPart {
    if (!account || account.revoked) throw new AppError('NotAuth');
    if (claims.iatMs < new Date(account.tokens_valid_after).getTime()) throw new AppError('NotAuth');
    if (account.state === 'disabled') throw new AppError('UserDisabled', { status: 403 });
    return account;
  }

  /** Verifies the token and the account behind it (one statement); throws 401/403 AppErrors. */
  async function authenticate(token: string): Promise<Actor> {
    const claims = await tokens.verify(token);
    if (claims.kind === 'guest') {
      if (await tokens.isRevoked(claims.jti)) throw new AppError('NotAuth');
      return { claims, accountId: null, isGuest: true };
    }
    const account = checkAccount(claims, await readAccount(db, claims.sub, claims.jti));
    return { claims, accountId: account.id, isGuest: false };
  }

  function snapshotOf(engineCode: string, userId: string, authType: number, roleIds: string[], part: Pick<EnginePart, 'nodesVersion' | 'formsVersion'>, mainDepartmentId?: string | null): ContextSnapshot {
    return { engineCode, userId, authType, roleIds, mainDepartmentId, nodesVersion: part.nodesVersion, formsVersion: part.formsVersion, caches };
  }

  /** A guest session in its engine (the EngineCode header, when sent, must name it). */
  async function enterAsGuest(request: FastifyRequest, claims: TokenClaims, allowGuest: boolean): Promise<Actor> {
    const engineCode = claims.eng ?? '';
    const read = await readGuestEngine(db, claims.jti, engineCode);
    if (read.revoked) throw new AppError('NotAuth');
    if (!allowGuest) throw new AppError('Forbidden');
    const asked = engineCodeHeader(request);
    if (!read.engine || (asked && asked !== read.engine.engine_code)) throw new AppError('EngineAccessDenied');
    assertEngineUsable(read.engine, 403);
    return {
      claims,
      accountId: null,
      isGuest: true,
      engine: read.engine,
      userId: 'guest',
      userName: '访客',
      authType: AUTH_TYPE_ANONYMOUS,
      isExternal: true,
      context: snapshotOf(engineCode, 'guest', AUTH_TYPE_ANONYMOUS, [], read),
    };
  }

  /**
   * The caller in the engine of the EngineCode header (or the account's last engine): the token, account,
   * membership, engine, user and roles in one statement (two without the header).
   */
  async function enterEngine(request: FastifyRequest, token: string, allowGuest: boolean): Promise<Actor> {
    const claims = await tokens.verify(token);
    if (claims.kind === 'guest') return enterAsGuest(request, claims, allowGuest);
    let engineCode = engineCodeHeader(request) ?? claims.eng;
    // A token bound to one engine (single sign-on of that engine) opens no other.
    if (claims.eng && engineCode !== claims.eng) throw new AppError('EngineAccessDenied');
    if (!engineCode) {
      const account = checkAccount(claims, await readAccount(db, claims.sub, claims.jti));
      engineCode = account.last_engine_code ?? undefined;
      if (!engineCode) throw new AppError('ArgumentIsNull', { message: '缺少 EngineCode 请求头', status: 200 });
    }
    const read = await readAccountInEngine(db, claims.sub, claims.jti, engineCode);
    if (read === 'no-engine') {
      checkAccount(claims, await readAccount(db, claims.sub, claims.jti));
      // An engine row without its schema yet (being allocated) answers with its state.
      const engine = await findEngine(db, engineCode);
      if (!engine) throw new AppError('EngineNotExist', { status: 403 });
      assertEngineUsable(engine, 403);
      throw new AppError('EngineAccessDenied');
    }
    const account = checkAccount(claims, read);
    const { engine, member } = read!;
    if (!member) {
      if (!engine) throw new AppError('EngineNotExist', { status: 403 });
      throw new AppError('EngineAccessDenied');
    }
    assertEngineUsable(engine!, 403);
    if (member.userState === 'disabled') throw new AppError('UserDisabled', { status: 403 });
    return {
      claims,
      accountId: account.id,
      isGuest: false,
      engine: engine!,
      userId: member.userId,
      userName: member.userName,
      mobile: member.mobile,
      authType: member.authType,
      isExternal: member.isExternal,
      context: snapshotOf(engine!.engine_code, member.userId, member.authType, member.roleIds, read!, member.mainDepartmentId),
    };
  }

  const routes = new Map<string, string | undefined>();
  declaredAccess.set(app, routes);
  app.addHook('onRoute', (route) => {
    const access = (route.config as { access?: Access } | undefined)?.access;
    for (const method of ([] as string[]).concat(route.method)) if (method !== 'HEAD') routes.set(`${method} ${route.url}`, access);
    const url = route.url.toLowerCase();
    const isApi = url.startsWith('/v1') || url.startsWith('/v2') || url.startsWith('/login') || url.startsWith('/home');
    if (isApi && !access) throw new Error(`route ${route.method} ${route.url} declares no access (public, optional, account, engine or admin)`);
  });

  // Before the body is validated: who may call a route is answered first, so a caller without the right learns
  // nothing of what the route would accept (the access matrix holds it).
  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    const access = config.access;
    if (!access || access === 'public') return;
    const token = bearerToken(request);
    if (access === 'optional') {
      if (!token) return;
      try {
        request.actor = await authenticate(token);
      } catch (error) {
        // A database outage is not "signed out": the caller gets the 503 and may retry (docs/decisions/0027).
        if (isDatabaseUnavailable(error)) throw error;
        request.actor = null;
      }
      return;
    }
    if (!token) throw new AppError('NotAuth');
    if (access === 'account') {
      const actor = await authenticate(token);
      request.actor = actor;
      if (actor.isGuest) throw new AppError('Forbidden');
      return;
    }
    const actor = await enterEngine(request, token, access === 'engine' && !!config.allowGuest);
    request.actor = actor;
    if (access === 'admin' && actor.authType !== AUTH_TYPE_ADMINISTRATOR) throw new AppError('Forbidden');
  });
  return caches;
}

/** The actor of a route whose access guarantees one. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('NotAuth');
  return request.actor;
}
