import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openTestDatabase } from '../../../test/helpers.ts';
import { buildOperationsApp } from '../../../test/operations-app.ts';
import { trustProxyOf } from '../../config.ts';
import type { Database } from '../../db/database.ts';

// TRITIUM_TRUST_PROXY (docs/deploy.md): behind nginx the client's address comes from X-Forwarded-For, and only from
// the proxies named; unset, the connecting address stands, whatever a caller writes in the header.

const ipRoute = (app: FastifyInstance) => app.get('/test/ip', { config: { access: 'public' } }, async (request) => ({ ip: request.ip }));
const ipOf = async (app: FastifyInstance, forwarded: string) =>
  (await app.inject({ method: 'GET', url: '/test/ip', headers: { 'x-forwarded-for': forwarded }, remoteAddress: '10.0.0.5' })).json().ip as string;

describe('the client address behind a proxy', () => {
  let database: Database;
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database.close();
  });

  it('reads the setting: off, on, or the proxies named', () => {
    expect(trustProxyOf(undefined)).toBe(false);
    expect(trustProxyOf('off')).toBe(false);
    expect(trustProxyOf('on')).toBe(true);
    expect(trustProxyOf(' 10.0.0.5, 172.16.0.0/12 ')).toEqual(['10.0.0.5', '172.16.0.0/12']);
  });

  it('takes X-Forwarded-For only from a trusted proxy', async () => {
    const plain = await buildOperationsApp(database, { routes: ipRoute });
    const behindNginx = await buildOperationsApp(database, { config: { trustProxy: ['10.0.0.5'] }, routes: ipRoute });
    const elsewhere = await buildOperationsApp(database, { config: { trustProxy: ['10.9.9.9'] }, routes: ipRoute });
    apps.push(plain, behindNginx, elsewhere);
    expect(await ipOf(plain, '203.0.113.7')).toBe('10.0.0.5');
    expect(await ipOf(behindNginx, '203.0.113.7')).toBe('203.0.113.7');
    expect(await ipOf(elsewhere, '203.0.113.7')).toBe('10.0.0.5');
  });
});
