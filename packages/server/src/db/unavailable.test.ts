import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import pg from 'pg';
import { ERRORS } from '@tritium/shared';
import { call, createTestApp, type TestApp } from '../../test/helpers.ts';
import { freePort } from '../../../../e2e/global-setup.ts';
import { openDatabase, type Database } from './database.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

// test-databases: both — how each driver reports a lost connection (docs/testing.md "Runs on both databases").

// What counts as "the database cannot be reached" (docs/decisions/0027), and what a request answers then: the
// catalogue's 503 / 100050 at once, not 888 and not a hang. The database here is a port nobody listens on.

let deadUrl: string;
beforeAll(async () => {
  deadUrl = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
});

describe('isDatabaseUnavailable', () => {
  it('knows a refused connection, a terminated session and a server starting up', async () => {
    const client = new pg.Client({ connectionString: deadUrl });
    const refused = await client.connect().then(() => undefined, (error: unknown) => error);
    expect(refused).toBeDefined();
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('does not take a wrong query or an outbound HTTP failure for an outage', async () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    const fetchFailure = await fetch(deadUrl.replace('postgres://postgres@', 'http://')).then(() => undefined, (error: unknown) => error);
    expect(isDatabaseUnavailable(fetchFailure)).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
  });
});

describe('a request while the database is away', () => {
  let database: Database;
  let t: TestApp;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: deadUrl, connectTimeoutMs: 2_000 });
    t = await createTestApp({ database });
  });
  afterAll(async () => {
    await t.close();
    await database.close();
  });

  it('answers 503 with 100050 in both languages of the catalogue', async () => {
    const res = await call(t.app, 'POST', '/v1/login/mobile/password', { body: { mobile: '13900000000', password: 'Passw0rd1' } });
    expect(res.status).toBe(503);
    expect(res.response.headers['retry-after']).toBe('2');
    expect(res.body).toMatchObject({ successful: false, errorCode: 100050, errorType: 'SYS', errorMessage: ERRORS.ServiceUnavailable.zh });
    expect(ERRORS.ServiceUnavailable.en).toMatch(/temporarily unavailable/);
  });

  it('answers a token refresh 503, not 401: the client keeps its session through the outage', async () => {
    const { accessToken } = await t.app.extras.tokens.issue('someone', 'user');
    const res = await call(t.app, 'GET', '/v1/token/refresh', { token: accessToken });
    expect(res.status).toBe(503);
    expect(res.body.errorCode).toBe(100050);
  });

  it('answers 503 when the connection attempt gets no answer at all (a server that accepts and stays silent)', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const hanging = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, connectTimeoutMs: 500 });
    const app = await createTestApp({ database: hanging });
    try {
      const res = await call(app.app, 'GET', '/v1/user/info', { token: 'x'.repeat(20) });
      // The token is checked before the database is asked: an invalid one is 401 whatever the database does.
      expect(res.status).toBe(401);
      const login = await call(app.app, 'POST', '/v1/login/mobile/password', { body: { mobile: '13900000000', password: 'Passw0rd1' } });
      expect(login.status).toBe(503);
      expect(login.body.errorCode).toBe(100050);
    } finally {
      await app.close();
      await hanging.close();
      silent.close();
    }
  });
});
