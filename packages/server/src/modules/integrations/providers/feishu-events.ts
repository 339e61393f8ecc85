import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { ChangeCallbacks, DirectoryChange } from './chat-provider.ts';
import { sameText } from './dingtalk-events.ts';

// Feishu's event subscription by request URL (docs/decisions/0089). With an Encrypt Key set in Feishu's console every
// push is the JSON { encrypt }: AES-256-CBC, the key the SHA-256 of the Encrypt Key, the IV the first 16 bytes of the
// decoded text, PKCS#7 padding; it opens to the JSON event. Event pushes carry X-Lark-Request-Timestamp,
// X-Lark-Request-Nonce and X-Lark-Signature, the SHA-256 (hex) of timestamp + nonce + Encrypt Key + the body as sent;
// the Verification Token is inside the event (header.token; the older schema: token). Saving the URL sends a
// url_verification event to be answered with its challenge. Contact events (contact.user.*_v3,
// contact.department.*_v3) name the person (event.object.user_id, else open_id) or the department
// (object.open_department_id).

const USER_EVENTS = new Set(['contact.user.created_v3', 'contact.user.updated_v3', 'contact.user.deleted_v3']);
const DEPARTMENT_EVENTS = new Set(['contact.department.created_v3', 'contact.department.updated_v3', 'contact.department.deleted_v3']);

const keyOf = (encryptKey: string) => createHash('sha256').update(encryptKey, 'utf8').digest();

export function feishuEncrypt(encryptKey: string, message: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', keyOf(encryptKey), iv);
  return Buffer.concat([iv, cipher.update(message, 'utf8'), cipher.final()]).toString('base64');
}

export function feishuDecrypt(encryptKey: string, encrypt: string): string | null {
  const data = Buffer.from(encrypt, 'base64');
  if (data.length < 32 || data.length % 16) return null;
  try {
    const decipher = createDecipheriv('aes-256-cbc', keyOf(encryptKey), data.subarray(0, 16));
    return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

export function feishuSignature(timestamp: string, nonce: string, encryptKey: string, body: string): string {
  return createHash('sha256').update(timestamp + nonce + encryptKey + body, 'utf8').digest('hex');
}

function parsed(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const field = (value: unknown, name: string) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined);
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** What a Feishu contact event names, or nothing the directory cares about. */
export function feishuChange(type: string, event: unknown): DirectoryChange | null {
  const object = field(event, 'object');
  if (USER_EVENTS.has(type)) {
    const id = text(field(object, 'user_id')) || text(field(object, 'open_id'));
    return { type, kind: 'user', subjects: id ? [id] : [] };
  }
  if (DEPARTMENT_EVENTS.has(type)) {
    const id = text(field(object, 'open_department_id'));
    return { type, kind: 'department', subjects: id ? [id] : [] };
  }
  return null;
}

export const feishuCallbacks: ChangeCallbacks = {
  open(_settings, keys, { method, headers, body }) {
    const outer = method === 'POST' ? parsed(body) : null;
    const encrypt = text(outer?.encrypt);
    // Without the Encrypt Key's sealing a push is only as safe as a token sent in clear: it is not taken.
    const plain = encrypt ? feishuDecrypt(keys.aesKey, encrypt) : null;
    const event = plain === null ? null : parsed(plain);
    if (!event) return null;
    const header = field(event, 'header');
    const token = text(field(header, 'token')) || text(event.token);
    if (!sameText(token, keys.token)) return null;
    if (event.type === 'url_verification') return { type: 'url_verification', change: null, answer: { challenge: text(event.challenge) } };
    // Event pushes are signed over the body exactly as sent (the URL check is not).
    const timestamp = headers['x-lark-request-timestamp'] ?? '';
    const nonce = headers['x-lark-request-nonce'] ?? '';
    const signature = headers['x-lark-signature'] ?? '';
    if (!timestamp || !nonce || !signature || !sameText(feishuSignature(timestamp, nonce, keys.aesKey, body), signature)) return null;
    const type = text(field(header, 'event_type')) || text(field(event.event, 'type'));
    return { type, change: feishuChange(type, event.event) };
  },

  reply: () => ({ msg: 'success' }),
};
