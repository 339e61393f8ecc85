import { createHash } from 'node:crypto';
import { contracts } from '@tritium/shared';

// The operation log's content rules (docs/decisions/0113): secrets masked before anything is stored, and each
// entry's hash over a canonical form of what is stored, so that the database's own key order (jsonb) does not matter.

/** The previous hash of the first entry ever written. */
export const GENESIS_HASH = '0'.repeat(64);

const SECRET_NAME = /password|passwd|secret|token|credential|private|authorization/i;
const KEYS_NOT_SECRET = new Set(['sortkey', 'schemakey']);

/** Whether a property of that name holds a secret (password, secret, token, key, clientSecret, appKey …). */
export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAME.test(name) || (lower.endsWith('key') && !KEYS_NOT_SECRET.has(lower));
}

/** A copy of `value` as JSON would carry it, every secret property's value replaced by ******. */
export function maskSecrets(value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : maskSecrets(v)));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    out[k] = isSecretName(k) && v !== null && v !== '' ? contracts.MASKED : maskSecrets(v);
  }
  return out;
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What an entry's hash covers, as stored. */
export interface ChainedContent {
  seq: number;
  time: string;
  userId: string | null;
  userName: string | null;
  kind: string;
  action: string;
  objectId: string | null;
  objectName: string | null;
  before: unknown;
  after: unknown;
  requestId: string | null;
  ip: string | null;
  prevHash: string;
}

export function hashOf(c: ChainedContent): string {
  const content = [c.seq, c.time, c.userId, c.userName, c.kind, c.action, c.objectId, c.objectName, c.before ?? null, c.after ?? null, c.requestId, c.ip, c.prevHash];
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}
