import { describe, expect, it } from 'vitest';
import { randomBytes, scryptSync } from 'node:crypto';
import { DEFAULT_SCRYPT_N, hashPassword, scryptCost, verifyPassword } from './passwords.ts';

describe('password hashes', () => {
  it('cost 2^14 unless TRITIUM_SCRYPT_N names a power of two from 2^10 to 2^17', () => {
    expect(DEFAULT_SCRYPT_N).toBe(16384);
    expect(scryptCost({})).toBe(16384);
    for (const bad of ['', 'abc', '1000', '512', '262144', '-1024', '1024.5']) expect(scryptCost({ TRITIUM_SCRYPT_N: bad })).toBe(16384);
    expect(scryptCost({ TRITIUM_SCRYPT_N: '1024' })).toBe(1024);
    expect(scryptCost({ TRITIUM_SCRYPT_N: '131072' })).toBe(131072);
  });

  it('a hash names its own cost: passwords hashed at another cost still verify, wrong ones never', async () => {
    const stored = await hashPassword('Passw0rd1');
    expect(stored).toMatch(new RegExp(`^scrypt\\$${scryptCost()}\\$8\\$1\\$`));
    expect(await verifyPassword('Passw0rd1', stored)).toBe(true);
    expect(await verifyPassword('Passw0rd2', stored)).toBe(false);
    // Made at the default cost, as a server without the setting stores it.
    const salt = randomBytes(16);
    const atDefault = ['scrypt', 16384, 8, 1, salt.toString('base64'), scryptSync('秘密pw', salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64')].join('$');
    expect(await verifyPassword('秘密pw', atDefault)).toBe(true);
    expect(await verifyPassword('秘密pW', atDefault)).toBe(false);
    expect(await verifyPassword('秘密pw', null)).toBe(false);
  });
});
