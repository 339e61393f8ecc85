import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CallbackKeys, ChangeCallbacks, ChatProviderSettings, DirectoryChange } from './chat-provider.ts';

// DingTalk's event subscription by HTTP push (docs/decisions/0077): DingTalk POSTs { encrypt } to the callback URL
// with msg_signature (older pushes: signature), timestamp and nonce in the query. The signature is the SHA-1 of the
// callback token, timestamp, nonce and the encrypted text, sorted and joined. The text is AES-256-CBC: key the
// base64 of the 43-character AES key (plus "="), IV its first 16 bytes, padding PKCS#7 to 32 bytes; plain, 16
// random bytes, the message length (4 bytes, big-endian), the JSON message, then the owner's key (the app's AppKey,
// or the CorpId for older apps). The answer is the word "success" encrypted and signed the same way; DingTalk
// retries a push it did not get that answer for, and refuses to save a callback URL that does not answer its
// check_url event.

const BLOCK = 32;

/** The contact-change events and what they name. */
const USER_EVENTS = new Set(['user_add_org', 'user_modify_org', 'user_leave_org', 'user_active_org']);
const DEPARTMENT_EVENTS = new Set(['org_dept_create', 'org_dept_modify', 'org_dept_remove']);

export function dingSignature(token: string, timestamp: string, nonce: string, encrypt: string): string {
  return createHash('sha1').update([token, timestamp, nonce, encrypt].sort().join('')).digest('hex');
}

function keyOf(aesKey: string): Buffer | null {
  const key = Buffer.from(`${aesKey}=`, 'base64');
  return aesKey.length === 43 && key.length === 32 ? key : null;
}

export function dingEncrypt(aesKey: string, ownerKey: string, message: string): string {
  const key = keyOf(aesKey);
  if (!key) throw new Error('the AES key must be 43 characters of base64');
  const text = Buffer.from(message, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(text.length);
  const plain = Buffer.concat([randomBytes(16), length, text, Buffer.from(ownerKey, 'utf8')]);
  const pad = BLOCK - (plain.length % BLOCK);
  const cipher = createCipheriv('aes-256-cbc', key, key.subarray(0, 16)).setAutoPadding(false);
  return Buffer.concat([cipher.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])), cipher.final()]).toString('base64');
}

/** The message and the owner's key of an encrypted text; null when it does not decrypt to DingTalk's layout. */
export function dingDecrypt(aesKey: string, encrypt: string): { message: string; ownerKey: string } | null {
  const key = keyOf(aesKey);
  if (!key) return null;
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, key.subarray(0, 16)).setAutoPadding(false);
    const plain = Buffer.concat([decipher.update(Buffer.from(encrypt, 'base64')), decipher.final()]);
    const pad = plain[plain.length - 1]!;
    if (pad < 1 || pad > BLOCK || plain.length < 20 + pad) return null;
    const body = plain.subarray(0, plain.length - pad);
    const length = body.readUInt32BE(16);
    if (20 + length > body.length) return null;
    return { message: body.subarray(20, 20 + length).toString('utf8'), ownerKey: body.subarray(20 + length).toString('utf8') };
  } catch {
    return null;
  }
}

export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What a DingTalk event names: the changed people or departments, or nothing the directory cares about. */
export function dingChange(event: Record<string, unknown>): DirectoryChange | null {
  const type = String(event.EventType ?? '');
  const ids = (value: unknown) => (Array.isArray(value) ? value.map(String).filter(Boolean) : []);
  if (USER_EVENTS.has(type)) return { type, kind: 'user', subjects: ids(event.UserId) };
  if (DEPARTMENT_EVENTS.has(type)) return { type, kind: 'department', subjects: ids(event.DeptId) };
  return null;
}

export const dingtalkCallbacks: ChangeCallbacks = {
  open(settings: ChatProviderSettings, keys: CallbackKeys, { method, query, body: text }) {
    let body: unknown;
    try {
      body = method === 'POST' ? JSON.parse(text) : null;
    } catch {
      return null;
    }
    const encrypt = typeof (body as { encrypt?: unknown } | null)?.encrypt === 'string' ? (body as { encrypt: string }).encrypt : '';
    const signature = query.msg_signature ?? query.signature ?? '';
    const { timestamp = '', nonce = '' } = query;
    if (!encrypt || !signature || !timestamp || !nonce) return null;
    if (!sameText(dingSignature(keys.token, timestamp, nonce, encrypt), signature)) return null;
    const opened = dingDecrypt(keys.aesKey, encrypt);
    if (!opened || (opened.ownerKey !== settings.appKey && opened.ownerKey !== settings.corpId)) return null;
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(opened.message) as Record<string, unknown>;
    } catch {
      return null;
    }
    return { type: String(event.EventType ?? ''), change: dingChange(event) };
  },

  reply(settings, keys) {
    const timeStamp = String(Date.now());
    const nonce = randomBytes(8).toString('hex');
    const encrypt = dingEncrypt(keys.aesKey, settings.appKey, 'success');
    return { msg_signature: dingSignature(keys.token, timeStamp, nonce, encrypt), timeStamp, nonce, encrypt };
  },
};
