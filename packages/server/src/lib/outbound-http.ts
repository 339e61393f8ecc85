import { AppError } from './app-error.ts';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { undiciAgent } from './lazy-packages.ts';

// Requests to addresses that engines' administrators type in — automations' HTTP steps, chat robots' webhooks, an
// SMS provider's address — go out through `outboundFetch` (docs/decisions/0072). One organisation's administrator
// must not reach what only the platform's own network can: the database, the platform itself, a cloud's metadata
// service, other services beside it. Loopback, private, link-local, shared, multicast and reserved addresses are
// refused unless the deployment allows them (TRITIUM_OUTBOUND_PRIVATE=allow: an on-premise platform calling systems
// of its own network, and the tests' local fakes). The check is made on the address the connection is really opened
// to (the agent's DNS lookup), so a name that resolves differently a second time cannot slip past it, and again on
// each redirect.

const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) INTERNAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) INTERNAL.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is one of the open internet's (not loopback, private, link-local, reserved…). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !INTERNAL.check(address, 'ipv4');
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  return !INTERNAL.check(address, 'ipv6');
}

/** A request refused before it left: the address is not the open internet's, or the URL is not http(s). */
export class OutboundRefused extends Error {
  override readonly name = 'OutboundRefused';
  constructor(
    readonly url: string,
    readonly reason: 'scheme' | 'internal' | 'redirects',
  ) {
    super(
      reason === 'scheme'
        ? `${url} is not an http or https address`
        : reason === 'redirects'
          ? `${url} redirected too many times`
          : `${url} points into the platform's own network, which outside requests may not reach`,
    );
  }
}

const MAX_REDIRECTS = 5;

type Lookup = (hostname: string, options: { all?: boolean } & Record<string, unknown>, callback: (...args: any[]) => void) => void;

/** DNS lookup that fails for names resolving to a non-public address (the connection never opens). */
const publicOnlyLookup: Lookup = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused || !addresses.length) {
      const failure = Object.assign(new Error(`${hostname} resolves to ${refused?.address ?? 'nothing'}`), { code: 'EOUTBOUNDREFUSED' });
      return callback(failure);
    }
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * A fetch for addresses typed in by engines' administrators. With `allowPrivate` it is the platform's fetch with
 * redirects re-checked for their scheme only.
 */
export function outboundFetch(options: { allowPrivate: boolean }): typeof fetch {
  // The agent (and undici with it) is made on the first request: most processes never send one.
  let agent: Promise<Dispatcher> | undefined;
  const dispatcherOf = () => (options.allowPrivate ? undefined : (agent ??= undiciAgent().then((Agent) => new Agent({ connect: { lookup: publicOnlyLookup as never } }))));
  const check = (url: URL) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(url.toString(), 'scheme');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(host) && !isPublicAddress(host)) throw new OutboundRefused(url.toString(), 'internal');
  };
  const send = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let url = new URL(input instanceof Request ? input.url : input);
    let request: RequestInit = { ...init, redirect: 'manual' };
    const dispatcher = await dispatcherOf();
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      check(url);
      let response: Response;
      try {
        response = await fetch(url, { ...request, ...(dispatcher ? { dispatcher } : {}) } as RequestInit);
      } catch (error) {
        if (refusedByLookup(error)) throw new OutboundRefused(url.toString(), 'internal');
        throw error;
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || !location || init?.redirect === 'manual') return response;
      if (init?.redirect === 'error') throw new TypeError(`${url} redirected to ${location}`);
      await response.body?.cancel();
      url = new URL(location, url);
      // 303, and 301/302 after a POST, become a GET without a body (as browsers and fetch do).
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST')) {
        request = { ...request, method: 'GET', body: undefined };
      }
    }
    throw new OutboundRefused(url.toString(), 'redirects');
  };
  return send as typeof fetch;
}

function refusedByLookup(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) if ((e as { code?: string }).code === 'EOUTBOUNDREFUSED') return true;
  return false;
}

/**
 * An outside answer's body, read until `maxBytes` (by its Content-Length first, then while reading): a larger one
 * is refused (420011) and not kept in memory. Every client of an outside service reads its answers through this.
 */
export async function readBoundedBody(response: Response, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new AppError('OutsideAnswerTooLarge', { detail: { limitKb: Math.round(maxBytes / 1024) } });
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
