import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, OutboundRefused, outboundFetch } from './outbound-http.ts';

// Outside requests to addresses administrators type in (docs/decisions/0072), against a server on 127.0.0.1.

let server: Server;
let port: number;
const seen: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url!);
    if (req.url === '/to-loopback') return void res.writeHead(302, { location: `http://127.0.0.1:${port}/landed` }).end();
    if (req.url === '/to-file') return void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    res.end(`ok ${req.method}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('outside requests', () => {
  it('tells the open internet from loopback, private, link-local, shared and reserved addresses', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ['127.0.0.1', '127.8.9.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'fc00::2', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not an address']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it('refuses loopback in every spelling, by name too, and schemes other than http(s), before anything is sent', async () => {
    const strict = outboundFetch({ allowPrivate: false });
    const before = seen.length;
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://[::1]:${port}/`, `http://2130706433:${port}/`, `http://0x7f.1:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, 'file:///etc/passwd', 'ftp://127.0.0.1/']) {
      const error = await strict(url).catch((e: unknown) => e);
      expect(error, url).toBeInstanceOf(OutboundRefused);
    }
    expect(seen.length).toBe(before);
  });

  it('follows redirects checking each hop: a redirect may not lead to another scheme, nor loop for ever', async () => {
    const allowed = outboundFetch({ allowPrivate: true });
    expect(await (await allowed(`http://127.0.0.1:${port}/to-loopback`, { method: 'POST', body: 'x' })).text()).toBe('ok GET');
    expect(await allowed(`http://127.0.0.1:${port}/to-file`).catch((e: unknown) => e)).toMatchObject({ reason: 'scheme' });
    expect(await allowed(`http://127.0.0.1:${port}/loop`).catch((e: unknown) => e)).toMatchObject({ reason: 'redirects' });
    const manual = await allowed(`http://127.0.0.1:${port}/to-loopback`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
  });
});
