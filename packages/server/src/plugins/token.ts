// What a signed-in request carries (its token's claims) and the token service the auth plugin verifies it with.
// The service itself is made in modules/auth/token.service.ts; app.ts hands it to registerAuth.

export type TokenKind = 'user' | 'guest';

export interface TokenClaims {
  /** Account id; 'guest' for an anonymous session. */
  sub: string;
  jti: string;
  kind: TokenKind;
  /** Milliseconds: compared with the account's tokens_valid_after (revocation by password reset). */
  iatMs: number;
  exp: number;
  /** Guest sessions are bound to one engine. */
  eng?: string;
}

export interface TokenService {
  issue(subject: string, kind: TokenKind, engineCode?: string): Promise<{ accessToken: string; expiresIn: number; claims: TokenClaims }>;
  /** Verifies signature and expiry; throws 401 AppErrors. Does not consult revocation. */
  verify(token: string): Promise<TokenClaims>;
  revoke(claims: TokenClaims): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
}
