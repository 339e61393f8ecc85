import { describe, expect, it } from 'vitest';
import { decodeJwtClaims, tokenAgeSeconds } from './jwt.ts';

const encode = (value: object) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value)))).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const tokenWith = (claims: object) => `${encode({ alg: 'HS256' })}.${encode(claims)}.signature`;

describe('jwt', () => {
  it('reads the claims without verifying', () => {
    expect(decodeJwtClaims(tokenWith({ iat: 100, name: '张三' }))).toEqual({ iat: 100, name: '张三' });
    expect(decodeJwtClaims('not-a-token')).toBeUndefined();
  });

  it('computes the age from iat', () => {
    expect(tokenAgeSeconds(tokenWith({ iat: 1000 }), 1_000_000 + 5_000)).toBe(5);
    expect(tokenAgeSeconds(tokenWith({}))).toBeUndefined();
  });
});
