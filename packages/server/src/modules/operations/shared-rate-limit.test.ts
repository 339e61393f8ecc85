import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openTestDatabase } from '../../../test/helpers.ts';
import type { Database } from '../../db/database.ts';
import { RATE_LIMITS } from '../../lib/route-types.ts';
import { buildOperationsApp } from '../../../test/operations-app.ts';

// test-databases: postgres — the per-address limits are counted in PostgreSQL when several processes share it; the
// embedded database (one process per data folder) keeps them in memory (docs/decisions/0121).

// Two apps on one database stand for two server processes behind a load balancer: what one counted, the other sees.

let database: Database;
let first: FastifyInstance;
let second: FastifyInstance;
const limited = (app: FastifyInstance) =>
  app.get('/test/limited', { config: { access: 'public', rateLimit: { max: 3, timeWindow: 2_000 } } }, async () => ({ ok: true }));
const from = (address: string) => ({ remoteAddress: address });

describe.runIf(process.env.TEST_DB_KIND === 'postgres')('request limits shared through PostgreSQL', () => {
  beforeAll(async () => {
    database = await openTestDatabase();
    first = await buildOperationsApp(database, { config: { rateLimit: true }, routes: limited });
    second = await buildOperationsApp(database, { config: { rateLimit: true }, routes: limited });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await database.close();
  });

  it('sign-in attempts: the second process refuses once the first used the allowance', async () => {
    for (let i = 0; i < RATE_LIMITS.signIn.max; i++) {
      const res = await first.inject({ method: 'POST', url: '/v1/login/mobile/password', payload: {}, ...from('203.0.113.7') });
      expect(res.statusCode).not.toBe(429);
    }
    const refused = await second.inject({ method: 'POST', url: '/v1/login/mobile/password', payload: {}, ...from('203.0.113.7') });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own allowance, on either process.
    expect((await second.inject({ method: 'POST', url: '/v1/login/mobile/password', payload: {}, ...from('203.0.113.8') })).statusCode).not.toBe(429);
  });

  it('counts each route apart, counts parallel requests one each, and starts again when the window ends', async () => {
    const address = from('198.51.100.4');
    const answers = await Promise.all([first, second, first, second, first].map((app) => app.inject({ method: 'GET', url: '/test/limited', ...address })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 429, 429]);
    expect(answers.find((r) => r.statusCode === 200)!.headers['x-ratelimit-limit']).toBe('3');
    const rows = await database.db.selectFrom('platform.rate_limit_counters').select(['key', 'count']).where('key', 'like', '%198.51.100.4').execute();
    expect(rows).toEqual([{ key: 'GET /test/limited|198.51.100.4', count: 5 }]);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await second.inject({ method: 'GET', url: '/test/limited', ...address })).statusCode).toBe(200);
  });
});
