import type { FastifyBaseLogger } from 'fastify';

/** Sends text messages; the verification-code service knows nothing else of the provider. */
export interface SmsSender {
  readonly kind: 'log' | 'http';
  send(mobile: string, text: string): Promise<void>;
}

/** No provider configured: the message goes to the server log (README "Verification codes"). */
export function createLogSmsSender(log: FastifyBaseLogger): SmsSender {
  return {
    kind: 'log',
    async send(mobile, text) {
      log.info({ mobile, sms: text }, 'SMS (no provider configured)');
    },
  };
}

/**
 * A generic HTTP SMS gateway: POST {to, text} as JSON with a bearer token; any 2xx answer whose JSON (if any)
 * does not say `ok: false` counts as sent. Most gateways sit behind such an adapter service.
 */
export function createHttpSmsSender(url: string, token: string | undefined, timeoutMs = 10_000): SmsSender {
  return {
    kind: 'http',
    async send(mobile, text) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ to: mobile, text }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`SMS gateway answered HTTP ${response.status}`);
      const body = await response.text();
      if (body) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          return;
        }
        if (parsed && typeof parsed === 'object' && (parsed as { ok?: unknown }).ok === false) {
          throw new Error(`SMS gateway refused the message: ${(parsed as { error?: unknown }).error ?? 'no reason'}`);
        }
      }
    },
  };
}
