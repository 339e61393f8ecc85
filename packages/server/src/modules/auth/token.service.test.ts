import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/types.ts';
import { createTokenService, TOKEN_TTL_SECONDS } from './token.service.ts';

// Verified tokens are remembered by their exact text (docs/decisions/0094); what a remembered token may not escape:
// its expiry, and a token that differs in any character is verified afresh.

const secret = new TextEncoder().encode('a-test-secret-of-enough-length-0123456789');
const noDb = {} as Db;

async function refused(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { errorName?: string }).errorName ?? String(error);
  }
  throw new Error('the token was accepted');
}

describe('token verification', () => {
  it('answers a token verified before with the same claims, and refuses it once it expires', async () => {
    let clock = Date.UTC(2026, 10, 27, 8);
    const tokens = createTokenService(noDb, secret, () => clock);
    const { accessToken, claims } = await tokens.issue('account-1', 'user', 'ENG1');
    const first = await tokens.verify(accessToken);
    expect(first).toEqual(claims);
    expect(await tokens.verify(accessToken)).toEqual(claims);
    clock += (TOKEN_TTL_SECONDS - 1) * 1000;
    expect((await tokens.verify(accessToken)).jti).toBe(claims.jti);
    clock += 1000;
    expect(await refused(tokens.verify(accessToken))).toBe('TokenExpired');
    // Still refused when asked again (the remembered claims were dropped, jwtVerify answers the same).
    expect(await refused(tokens.verify(accessToken))).toBe('TokenExpired');
  });

  it('refuses a token that differs from a verified one, or was signed with another secret', async () => {
    const now = () => Date.UTC(2026, 10, 27, 8);
    const tokens = createTokenService(noDb, secret, now);
    const { accessToken } = await tokens.issue('account-1', 'user');
    await tokens.verify(accessToken);
    const [header, payload, signature] = accessToken.split('.');
    const otherSignature = `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await refused(tokens.verify(`${header}.${payload}.${otherSignature}`))).toBe('NotAuth');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: 'account-2' })).toString('base64url');
    expect(await refused(tokens.verify(`${header}.${forged}.${signature}`))).toBe('NotAuth');
    const elsewhere = createTokenService(noDb, new TextEncoder().encode('another-secret-of-enough-length-9876543210'), now);
    expect(await refused(elsewhere.verify(accessToken))).toBe('NotAuth');
  });
});
