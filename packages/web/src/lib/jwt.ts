/**
 * Reads the claims of a JWT without verifying it. The client only needs `iat` to decide when to refresh;
 * the server verifies every token it receives.
 */
export function decodeJwtClaims(token: string): Record<string, unknown> | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const binary = atob(base64);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Seconds since the token was issued, or undefined when it carries no readable `iat`. */
export function tokenAgeSeconds(token: string, nowMs = Date.now()): number | undefined {
  const iat = decodeJwtClaims(token)?.iat;
  return typeof iat === 'number' ? Math.floor(nowMs / 1000) - iat : undefined;
}
