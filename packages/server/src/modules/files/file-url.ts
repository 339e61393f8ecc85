import { createHmac, timingSafeEqual } from 'node:crypto';

/** domain: "short-lived" download links (docs/decisions/0008): ten minutes. */
export const FILE_URL_TTL_SECONDS = 600;

export interface FileUrlSigner {
  /** A relative URL that streams the file until it expires (after ttlSeconds; exports sign longer links). */
  sign(engineCode: string, fileId: string, ttlSeconds?: number): { url: string; expiresAt: Date };
  /** Whether the link was made by this server for this file and engine and has not expired. */
  verify(link: { engineCode: string; fileId: string; expires: number; signature: string }): boolean;
}

/**
 * Download links are signed with HMAC-SHA256 under a key derived from the token signing secret (the same secret
 * every server process loads: TRITIUM_JWT_SECRET or platform.settings), so any process verifies any link and
 * rotating the token secret also ends every outstanding link.
 */
export function createFileUrlSigner(signingSecret: Uint8Array, now: () => number = Date.now): FileUrlSigner {
  const key = createHmac('sha256', signingSecret).update('tritium:file-url:v1').digest();
  const mac = (engineCode: string, fileId: string, expires: number) =>
    createHmac('sha256', key).update(`${engineCode}\n${fileId}\n${expires}`).digest('base64url');
  return {
    sign(engineCode, fileId, ttlSeconds = FILE_URL_TTL_SECONDS) {
      const expires = Math.floor(now() / 1000) + ttlSeconds;
      const query = new URLSearchParams({ engine: engineCode, expires: String(expires), signature: mac(engineCode, fileId, expires) });
      return { url: `/v1/file/download/${fileId}?${query}`, expiresAt: new Date(expires * 1000) };
    },
    verify({ engineCode, fileId, expires, signature }) {
      if (expires * 1000 <= now()) return false;
      const expected = Buffer.from(mac(engineCode, fileId, expires));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
