import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { serveFake, bodyOf, sendJson as json } from './fake-http.ts';

// A fake ERP for connectors (docs/decisions/0120): it checks each kind of authentication the way a real provider
// does — basic, bearer, an API key in a header or the query, OAuth2 client credentials at its token endpoint, an
// HMAC-SHA256 signature of `<timestamp>.<body>` — and answers a customer's data. `down` makes every call a 503.

export const ERP = {
  user: 'erp-user',
  password: 'erp-Pa55word',
  bearer: 'erp-bearer-token-secret',
  apiKey: 'erp-api-key-secret',
  clientId: 'tritium-client',
  clientSecret: 'erp-client-secret',
  hmacKey: 'erp-hmac-key-secret',
} as const;

export interface ErpFake {
  url: string;
  /** Every call as received (method, path with query, headers). */
  calls: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  tokensIssued: number;
  down: boolean;
  close(): Promise<void>;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const basicOf = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function customer(no: string) {
  return {
    code: 0,
    data: {
      customer: { no, name: `客户${no}`, level: 'A', credit: 5000 },
      orders: [
        { id: 'SO-1', amount: 120.5, product: '螺丝' },
        { id: 'SO-2', amount: 80, product: '螺母' },
      ],
    },
  };
}

export async function startErpFake(): Promise<ErpFake> {
  let currentToken = '';
  const fake: Omit<ErpFake, 'url' | 'close'> = { calls: [], tokensIssued: 0, down: false };
  const server = await serveFake(async (req, res) => {
    const body = await bodyOf(req);
    const url = new URL(req.url ?? '/', 'http://erp');
    fake.calls.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
    if (fake.down) return json(res, 503, { message: 'maintenance' });
    const [, scheme] = url.pathname.split('/');
    const authorization = req.headers.authorization ?? '';
    if (url.pathname === '/oauth/token') {
      const form = new URLSearchParams(body);
      if (!same(authorization, basicOf(ERP.clientId, ERP.clientSecret)) || form.get('grant_type') !== 'client_credentials') return json(res, 401, { error: 'invalid_client' });
      currentToken = `at-${++fake.tokensIssued}`;
      return json(res, 200, { access_token: currentToken, token_type: 'Bearer', expires_in: 3600 });
    }
    const allowed =
      scheme === 'open' ||
      (scheme === 'basic' && same(authorization, basicOf(ERP.user, ERP.password))) ||
      (scheme === 'bearer' && same(authorization, `Bearer ${ERP.bearer}`)) ||
      (scheme === 'key' && (req.headers['x-api-key'] === ERP.apiKey || url.searchParams.get('api_key') === ERP.apiKey)) ||
      (scheme === 'oauth' && !!currentToken && authorization === `Bearer ${currentToken}`) ||
      (scheme === 'hmac' && signedWell(req, body));
    if (!allowed) return json(res, 401, { message: 'unauthorized' });
    if (url.pathname.endsWith('/health')) return json(res, 200, { status: 'UP' });
    if (url.pathname.endsWith('/big')) return json(res, 200, { data: 'x'.repeat(300_000) });
    if (url.pathname.endsWith('/slow')) await new Promise((resolve) => setTimeout(resolve, 1500));
    if (url.pathname.endsWith('/missing')) return json(res, 404, { message: 'no such thing' });
    if (url.pathname.endsWith('/orders')) return json(res, 200, ordersPage(url.searchParams, body));
    const sent = body ? (JSON.parse(body) as { no?: string }) : {};
    return json(res, 200, customer(url.searchParams.get('no') ?? sent.no ?? decodeURIComponent(url.pathname.split('/').pop() ?? '')));
  });
  return Object.assign(fake, { url: server.url, close: server.close }) as ErpFake;
}

/** The provider's check: X-Timestamp within 5 minutes, X-Signature the HMAC of `<timestamp>.<body>`. */
function signedWell(req: IncomingMessage, body: string): boolean {
  const timestamp = String(req.headers['x-timestamp'] ?? '');
  const signature = String(req.headers['x-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  return same(signature, createHmac('sha256', ERP.hmacKey).update(`${timestamp}.${body}`).digest('hex'));
}

/** The ERP's orders: 23 of them, every third one open, the rest paid. */
export const ERP_ORDERS = Array.from({ length: 23 }, (_, i) => ({
  id: `SO-${String(i + 1).padStart(3, '0')}`,
  customer: { name: `客户${(i % 5) + 1}` },
  amount: 100 + i * 10,
  status: i % 3 === 0 ? 'open' : 'paid',
}));

/**
 * A list endpoint with paging and filters, as ERPs commonly offer them: `page` (from 1), `size` (at most 50), `status`
 * and `customer` (a part of the name), from the query or a JSON body; answers the page's items and the total.
 */
function ordersPage(query: URLSearchParams, body: string) {
  const sent = body ? (JSON.parse(body) as Record<string, unknown>) : {};
  const read = (name: string) => String(sent[name] ?? query.get(name) ?? '');
  const page = Math.max(1, Number(read('page')) || 1);
  const size = Math.min(50, Math.max(1, Number(read('size')) || 10));
  const status = read('status');
  const customer = read('customer');
  const matching = ERP_ORDERS.filter((o) => (!status || o.status === status) && (!customer || o.customer.name.includes(customer)));
  return { code: 0, data: { items: matching.slice((page - 1) * size, page * size), total: matching.length } };
}
