import { createHash, createHmac } from 'node:crypto';

// Tencent Cloud API 3.0 request signing, TC3-HMAC-SHA256 (cloud.tencent.com/document/api/213/30654): a canonical
// request (method, URI "/", empty query, the signed headers content-type and host, the body's SHA-256), a string to
// sign (algorithm, timestamp, credential scope <date>/<service>/tc3_request, the canonical request's SHA-256), and the
// signature HMAC'd with a key derived from "TC3" + SecretKey over the UTC date, the service and "tc3_request".

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

export interface Tc3Request {
  secretId: string;
  secretKey: string;
  service: string;
  host: string;
  contentType: string;
  body: string;
  /** Unix seconds. */
  timestamp: number;
}

/** The Authorization header's value for a POST to "/" of `host`. */
export function tc3Authorization(request: Tc3Request): string {
  const date = new Date(request.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host';
  const canonicalRequest = ['POST', '/', '', `content-type:${request.contentType}\nhost:${request.host}\n`, signedHeaders, sha256Hex(request.body)].join('\n');
  const scope = `${date}/${request.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(request.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${request.secretKey}`, date), request.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return `TC3-HMAC-SHA256 Credential=${request.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}
