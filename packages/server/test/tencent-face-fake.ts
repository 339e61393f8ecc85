import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { deflateSync } from 'node:zlib';
import { serveFake, bodyOf } from './fake-http.ts';

// A fake of Tencent Cloud's face recognition API (iai, CompareFace, version 2020-03-03) for the face check
// (docs/decisions/0123). It checks every request the way the real API does: the X-TC-Action/Version/Timestamp headers,
// the Authorization header's TC3-HMAC-SHA256 credential (a SecretId it knows, the scope's date and service), a
// timestamp within 5 minutes, and the signature recomputed here from the canonical request (method, "/", no query,
// content-type and host, the body's SHA-256) with the key derived from "TC3" + SecretKey. A wrong one is refused with
// the API's own error shape: HTTP 200, {Response: {Error: {Code: "AuthFailure.SignatureFailure", …}, RequestId}}.
// (The real API does not sign its answers; HTTPS is what vouches for them, so the fake signs none either.)
//
// Scores, decided from the pictures: each test picture carries a marker `face=<person>` in a PNG text chunk (see
// facePicture). Identical bytes score 96; two pictures whose markers name the same person score 88; different persons
// score 12. A picture without a marker has no face (InvalidParameterValue.NoFaceInPhoto); bytes that are not JPEG, PNG
// or BMP cannot be decoded (FailedOperation.ImageDecodeFailed); an image over 5 MB in base64 is too large
// (FailedOperation.ImageSizeExceed).

export const TENCENT = { secretId: 'AKIDfaketritium0001', secretKey: 'fake-tencent-secret-key-0001', region: 'ap-guangzhou' } as const;

export interface TencentFaceFake {
  url: string;
  /** Every CompareFace call received: the error code answered (or '') and the score. */
  calls: { error: string; score: number | null }[];
  /** Seconds added to the fake's clock (to make a request's timestamp too old). */
  skewSeconds: number;
  close(): Promise<void>;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmacOf = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function answer(res: ServerResponse, response: Record<string, unknown>) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ Response: { ...response, RequestId: randomUUID() } }));
}
const fail = (res: ServerResponse, code: string, message: string) => answer(res, { Error: { Code: code, Message: message } });

/** The signature the API expects for this request (Tencent Cloud's "签名方法 v3"), computed on the fake's side. */
function expectedSignature(req: IncomingMessage, body: string, date: string, timestamp: string, secretKey: string): string {
  const canonicalHeaders = `content-type:${String(req.headers['content-type'] ?? '').toLowerCase()}\nhost:${String(req.headers.host ?? '').toLowerCase()}\n`;
  const canonicalRequest = `POST\n/\n\n${canonicalHeaders}\ncontent-type;host\n${sha256Hex(body)}`;
  const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/iai/tc3_request\n${sha256Hex(canonicalRequest)}`;
  const secretDate = hmacOf(`TC3${secretKey}`, date);
  const secretService = hmacOf(secretDate, 'iai');
  const secretSigning = hmacOf(secretService, 'tc3_request');
  return createHmac('sha256', secretSigning).update(stringToSign).digest('hex');
}

const isPicture = (b: Buffer) => (b[0] === 0xff && b[1] === 0xd8) || (b[0] === 0x89 && b.subarray(1, 4).toString() === 'PNG') || b.subarray(0, 2).toString() === 'BM';
const personOf = (b: Buffer) => /face=([A-Za-z0-9_-]+)/.exec(b.toString('latin1'))?.[1] ?? null;

export async function startTencentFaceFake(): Promise<TencentFaceFake> {
  const fake = { calls: [] as TencentFaceFake['calls'], skewSeconds: 0 };
  const record = (error: string, score: number | null) => fake.calls.push({ error, score });
  const server = await serveFake(async (req, res) => {
    const body = await bodyOf(req);
    if (req.method !== 'POST') return fail(res, 'UnsupportedProtocol', 'POST only');
    const action = req.headers['x-tc-action'];
    const version = req.headers['x-tc-version'];
    const timestamp = String(req.headers['x-tc-timestamp'] ?? '');
    if (action !== 'CompareFace') return (record('InvalidAction', null), fail(res, 'InvalidAction', `The action ${String(action)} does not exist`));
    if (version !== '2020-03-03') return (record('NoSuchVersion', null), fail(res, 'NoSuchVersion', 'The API version does not exist'));
    const auth = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(String(req.headers.authorization ?? ''));
    if (!auth) return (record('AuthFailure.InvalidAuthorization', null), fail(res, 'AuthFailure.InvalidAuthorization', 'Authorization in the request header is invalid'));
    const [, secretId, date, service, signedHeaders, signature] = auth as unknown as string[];
    if (secretId !== TENCENT.secretId) return (record('AuthFailure.SecretIdNotFound', null), fail(res, 'AuthFailure.SecretIdNotFound', 'The SecretId is not found'));
    const now = Math.floor(Date.now() / 1000) + fake.skewSeconds;
    if (!/^\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > 300) return (record('AuthFailure.SignatureExpire', null), fail(res, 'AuthFailure.SignatureExpire', 'Signature expired'));
    const scopeDate = new Date(Number(timestamp) * 1000).toISOString().slice(0, 10);
    const expected = expectedSignature(req, body, scopeDate, timestamp, TENCENT.secretKey);
    if (service !== 'iai' || date !== scopeDate || signedHeaders !== 'content-type;host' || !same(signature!, expected)) {
      record('AuthFailure.SignatureFailure', null);
      return fail(res, 'AuthFailure.SignatureFailure', 'The provided credentials could not be validated. Please check your signature is correct.');
    }
    let parsed: { ImageA?: unknown; ImageB?: unknown };
    try {
      parsed = JSON.parse(body);
    } catch {
      return (record('InvalidParameter', null), fail(res, 'InvalidParameter', 'The body is not JSON'));
    }
    if (typeof parsed.ImageA !== 'string' || typeof parsed.ImageB !== 'string' || !parsed.ImageA || !parsed.ImageB) {
      return (record('InvalidParameterValue.ImageEmpty', null), fail(res, 'InvalidParameterValue.ImageEmpty', 'The image is empty'));
    }
    if (parsed.ImageA.length > 5 * 1024 * 1024 || parsed.ImageB.length > 5 * 1024 * 1024) return (record('FailedOperation.ImageSizeExceed', null), fail(res, 'FailedOperation.ImageSizeExceed', 'The image is larger than 5 MB in base64'));
    const a = Buffer.from(parsed.ImageA, 'base64');
    const b = Buffer.from(parsed.ImageB, 'base64');
    if (!isPicture(a) || !isPicture(b)) return (record('FailedOperation.ImageDecodeFailed', null), fail(res, 'FailedOperation.ImageDecodeFailed', 'The image cannot be decoded'));
    const personA = personOf(a);
    const personB = personOf(b);
    if (!personA || !personB) return (record('InvalidParameterValue.NoFaceInPhoto', null), fail(res, 'InvalidParameterValue.NoFaceInPhoto', 'There is no face in the image'));
    const score = a.equals(b) ? 96 : personA === personB ? 88 : 12;
    record('', score);
    return answer(res, { Score: score, FaceModelVersion: '3.0' });
  });
  return Object.assign(fake, { url: server.url, close: server.close });
}

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A real 96×96 PNG (a face-like drawing) carrying the marker the fake reads: `person` names whose face it shows (null:
 * no face), `shade` makes another picture of the same person (different bytes).
 */
export function facePicture(person: string | null, shade = 0): Buffer {
  const size = 96;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const dx = x - 48;
      const dy = y - 48;
      const inFace = person !== null && dx * dx + dy * dy < 34 * 34;
      const eye = inFace && (Math.hypot(x - 36, y - 40) < 5 || Math.hypot(x - 60, y - 40) < 5);
      const mouth = inFace && y > 60 && y < 64 && x > 36 && x < 60;
      const [r, g, b] = eye || mouth ? [40, 40, 40] : inFace ? [240 - shade, 200 - shade, 160] : [200, 220, 240 - shade];
      row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  const text = person ? chunk('tEXt', Buffer.from(`Comment\0face=${person}`, 'latin1')) : Buffer.alloc(0);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    text,
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
