import { createPrivateKey, createPublicKey, createSign, createVerify, type KeyObject } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';

// Alipay's RSA2 rules (its open API's "签名" and "异步通知验签" pages): a request is signed with SHA256withRSA over its
// non-empty parameters except `sign`, sorted by name, joined as `name=value&…` with the raw (not URL-encoded) values;
// an answer's `<method>_response` member is signed over its exact JSON text; an asynchronous notify is verified over
// its parameters except `sign` and `sign_type`. The fake provider uses the same functions from the other side.

/** `name=value&…` of the non-empty parameters, sorted by name (code-unit order, as the SDKs sort), leaving out `except`. */
export function signingText(params: Record<string, string | undefined>, except: readonly string[] = ['sign']): string {
  return Object.keys(params)
    .filter((name) => !except.includes(name) && params[name] !== undefined && params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

/** A PEM key as the settings hold it; a bare base64 body (as Alipay's console shows keys) is wrapped first. */
function pemOf(text: string, kind: 'PRIVATE KEY' | 'PUBLIC KEY'): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return trimmed;
  const body = trimmed.replace(/\s+/g, '');
  return `-----BEGIN ${kind}-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${kind}-----`;
}

export function privateKeyOf(text: string, setting = 'privateKey'): KeyObject {
  try {
    return createPrivateKey(pemOf(text, 'PRIVATE KEY'));
  } catch {
    throw new AppError('PaymentSettingsInvalid', { detail: { setting } });
  }
}

export function publicKeyOf(text: string, setting = 'platformPublicKey'): KeyObject {
  try {
    return createPublicKey(pemOf(text, 'PUBLIC KEY'));
  } catch {
    throw new AppError('PaymentSettingsInvalid', { detail: { setting } });
  }
}

export function signRsa2(text: string, key: KeyObject): string {
  return createSign('RSA-SHA256').update(text, 'utf8').sign(key, 'base64');
}

export function verifyRsa2(text: string, signature: string, key: KeyObject): boolean {
  if (!signature) return false;
  try {
    return createVerify('RSA-SHA256').update(text, 'utf8').verify(key, signature, 'base64');
  } catch {
    return false;
  }
}

/**
 * The exact text of a top-level member's value in a JSON document (what Alipay signs), or null when absent. Scans the
 * text rather than re-serialising the parsed value, which could reorder keys or change number and escape spellings.
 */
export function memberText(json: string, member: string): string | null {
  const key = `"${member}"`;
  let at = json.indexOf(key);
  while (at >= 0) {
    let i = at + key.length;
    while (/\s/.test(json[i] ?? '')) i++;
    if (json[i] === ':') {
      i++;
      while (/\s/.test(json[i] ?? '')) i++;
      const end = valueEnd(json, i);
      return end > i ? json.slice(i, end) : null;
    }
    at = json.indexOf(key, at + 1);
  }
  return null;
}

/** Where the JSON value starting at `start` ends (an object or array by its balanced brackets, strings skipped). */
function valueEnd(json: string, start: number): number {
  const open = json[start];
  if (open !== '{' && open !== '[') {
    const rest = /^("(?:[^"\\]|\\.)*"|[^,}\]\s]+)/.exec(json.slice(start));
    return rest ? start + rest[0].length : start;
  }
  let depth = 0;
  for (let i = start; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      for (i++; i < json.length && json[i] !== '"'; i++) if (json[i] === '\\') i++;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return start;
}

/** "yyyy-MM-dd HH:mm:ss" in China time (UTC+8, no daylight saving), as the gateway's `timestamp` wants it. */
export function chinaTime(date: Date): string {
  const shifted = new Date(date.getTime() + 8 * 3600_000).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, 19)}`;
}

/** The instant of a China-time "yyyy-MM-dd HH:mm:ss" (gmt_payment, send_pay_date), or null. */
export function fromChinaTime(text: string | undefined | null): Date | null {
  if (!text || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return null;
  const date = new Date(`${text.replace(' ', 'T')}+08:00`);
  return Number.isNaN(date.getTime()) ? null : date;
}
