import { randomBytes, scrypt as scryptCallback, timingSafeEqual, createHash } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const MAXMEM = 64 * 1024 * 1024;
/** scrypt's cost N for new hashes: 2^14 (about 40 ms a hash here) unless TRITIUM_SCRYPT_N names another power of two. */
export const DEFAULT_SCRYPT_N = 16384;

/**
 * The cost of a new hash: TRITIUM_SCRYPT_N when it is a power of two from 2^10 to 2^17 (a faster machine may ask more;
 * the test suites ask 2^10, registering hundreds of people), else the default. A stored hash names its own N, so a
 * change of the setting keeps every password working.
 */
export function scryptCost(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.TRITIUM_SCRYPT_N);
  return Number.isInteger(n) && n >= 1024 && n <= 131072 && (n & (n - 1)) === 0 ? n : DEFAULT_SCRYPT_N;
}
const PARAMS = { N: scryptCost(), r: 8, p: 1, maxmem: MAXMEM };

/** scrypt hash in the form scrypt$N$r$p$salt$hash (architecture.md §6). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [kind, n, r, p, saltB64, hashB64] = stored.split('$');
  if (kind !== 'scrypt') return false;
  const expected = Buffer.from(hashB64, 'base64');
  const actual = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: MAXMEM,
  });
  return timingSafeEqual(expected, actual);
}

/** Verification codes are short-lived; a salted SHA-256 keeps them out of the table in clear. */
export function hashVerifyCode(mobile: string, code: string): string {
  return createHash('sha256').update(`${mobile}:${code}`).digest('base64');
}
