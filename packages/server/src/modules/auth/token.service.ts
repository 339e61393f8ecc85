import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';
import { AppError } from '../../lib/app-error.ts';
import type { TokenClaims, TokenKind, TokenService } from '../../plugins/token.ts';

/** domain.md §9: token expiry 48 hours. */
export const TOKEN_TTL_SECONDS = 48 * 3600;

// The token's shape and the service's interface live beside the request plugin that consumes them (plugins/token.ts),
// so the plugin needs nothing from this module; re-exported for the callers that import them from here.
export type { TokenClaims, TokenKind, TokenService };

/** Loads the signing secret shared by every server process, creating it on first start. */
export async function loadSigningSecret(db: Db, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insertInto('platform.settings')
    .values({ name: 'jwt_secret', value: randomBytes(48).toString('base64') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('platform.settings').select('value').where('name', '=', 'jwt_secret').executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64');
}

/**
 * How many verified tokens a process remembers (docs/decisions/0094). Checking a token's signature was a tenth of
 * the server's CPU on a list request; a token seen before is known good by its exact text, so only its expiry is
 * checked again (revocation is read by every request's context statement, as before). Beyond this many, the oldest
 * is forgotten and verified again when it comes back.
 */
export const VERIFIED_TOKENS_KEPT = 10_000;

export function createTokenService(db: Db, secret: Uint8Array, now: () => number = Date.now): TokenService {
  const verified = new Map<string, TokenClaims>();
  return {
    async issue(subject, kind, engineCode) {
      const iatMs = now();
      const exp = Math.floor(iatMs / 1000) + TOKEN_TTL_SECONDS;
      const claims: TokenClaims = { sub: subject, jti: newId(), kind, iatMs, exp, ...(engineCode ? { eng: engineCode } : {}) };
      const accessToken = await new SignJWT({ kind, iatMs, ...(engineCode ? { eng: engineCode } : {}) })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(subject)
        .setJti(claims.jti)
        .setIssuedAt(Math.floor(iatMs / 1000))
        .setExpirationTime(exp)
        .sign(secret);
      return { accessToken, expiresIn: TOKEN_TTL_SECONDS, claims };
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        // The rule jwtVerify applies: expired once exp is not after the current second.
        if (known.exp > Math.floor(now() / 1000)) return known;
        verified.delete(token);
        throw new AppError('TokenExpired');
      }
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: new Date(now()) });
        if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') {
          throw new AppError('NotAuth');
        }
        const claims: TokenClaims = Object.freeze({
          sub: payload.sub,
          jti: payload.jti,
          kind: payload.kind === 'guest' ? 'guest' : 'user',
          iatMs: Number(payload.iatMs ?? (payload.iat ?? 0) * 1000),
          exp: payload.exp,
          ...(typeof payload.eng === 'string' ? { eng: payload.eng } : {}),
        });
        if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
        verified.set(token, claims);
        return claims;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw new AppError('TokenExpired');
        if (error instanceof AppError) throw error;
        throw new AppError('NotAuth');
      }
    },
    async revoke(claims) {
      await db
        .insertInto('platform.revoked_tokens')
        .values({ jti: claims.jti, expires_at: new Date(claims.exp * 1000) })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
    },
    async isRevoked(jti) {
      const row = await db.selectFrom('platform.revoked_tokens').select('jti').where('jti', '=', jti).executeTakeFirst();
      return !!row;
    },
  };
}

/** Drops revocation rows whose tokens have expired anyway. */
export async function purgeExpiredRevocations(db: Db): Promise<void> {
  await db.deleteFrom('platform.revoked_tokens').where('expires_at', '<', sql<Date>`now()`).execute();
}
