import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../../db/types.ts';

// Channel secrets are stored as AES-256-GCM ciphertext (issue 20). The key is TRITIUM_SECRET_KEY when set (any
// string: its SHA-256 is the key), otherwise one generated on first start and kept in platform.settings, as the
// token signing secret is, so that every server process on the database reads the same key.

const VERSION = 'v1';
let currentKey: Buffer | undefined;

/** Reads (or creates) the key once at start-up; buildApp calls it before any route runs. */
export async function loadSecretKey(db: Db, configured?: string): Promise<Buffer> {
  if (configured) return (currentKey = createHash('sha256').update(configured, 'utf8').digest());
  await db
    .insertInto('platform.settings')
    .values({ name: 'secret_key', value: randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('platform.settings').select('value').where('name', '=', 'secret_key').executeTakeFirstOrThrow();
  return (currentKey = Buffer.from(row.value, 'base64'));
}

function keyOrThrow(): Buffer {
  if (!currentKey) throw new Error('the secret key is not loaded (loadSecretKey runs in buildApp)');
  return currentKey;
}

/** Encrypts a JSON value: `v1.<iv>.<tag>.<ciphertext>`, base64 parts, a fresh 12-byte IV each time. */
export function sealSecrets(value: Record<string, string>): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOrThrow(), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join('.');
}

/** Decrypts what sealSecrets made; undefined when it cannot (another key, damaged text). */
export function openSecrets(sealed: string): Record<string, string> | undefined {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOrThrow(), Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    const text = Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
    return JSON.parse(text) as Record<string, string>;
  } catch {
    return undefined;
  }
}
