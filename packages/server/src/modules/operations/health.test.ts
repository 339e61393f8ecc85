import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { sql } from 'kysely';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openTestDatabase } from '../../../test/helpers.ts';
import { freePort } from '../../../../../e2e/global-setup.ts';
import { openDatabase, type Database } from '../../db/database.ts';
import type { FileStore } from '../files/file-store.ts';
import { buildOperationsApp } from '../../../test/operations-app.ts';

// /healthz and /readyz (docs/decisions/0121): what a load balancer asks before it sends a process requests.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('/healthz and /readyz', () => {
  it('answer 200 when the process, its database, migrations and file store are fine, without a session or a limit', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tritium-ready-'));
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    const app = await buildOperationsApp(database, { config: { rateLimit: true, dataDir } });
    onTestFinished(() => app.close());
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    for (let i = 0; i < 3; i++) {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ok' });
      expect(ready.headers['x-ratelimit-limit']).toBeUndefined();
    }
    // The probe wrote to the data folder's file store and took its file away again.
    expect(await readdir(path.join(dataDir, 'files', '_ready'))).toEqual([]);
  });

  it('readyz answers 503 naming the file store when it cannot be written, while healthz still answers 200', async () => {
    const broken: FileStore = {
      put: async () => {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
      get: async () => undefined,
      delete: async () => undefined,
      exists: async () => false,
      size: async () => undefined,
    };
    const app = await buildOperationsApp(database, { fileStore: broken });
    onTestFinished(() => app.close());
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', failed: [{ check: 'files', reason: 'unreachable' }] });
    expect(ready.body).not.toContain('EACCES');
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('readyz answers 503 while a platform migration is pending', async () => {
    const own = await openTestDatabase();
    onTestFinished(() => own.close());
    await sql`delete from platform.kysely_migration where name = '2026-11-29T0510_add-job-request-id'`.execute(own.db);
    const app = await buildOperationsApp(own);
    onTestFinished(() => app.close());
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', failed: [{ check: 'migrations', reason: '1 pending' }] });
  });

  it('readyz answers 503 quickly when the database is gone; healthz does not ask it', async () => {
    const gone = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${await freePort()}/postgres`, connectTimeoutMs: 500 });
    onTestFinished(() => gone.close());
    const app = await buildOperationsApp(gone, { kind: false });
    onTestFinished(() => app.close());
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const started = Date.now();
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(ready.statusCode).toBe(503);
    expect(ready.json().failed).toContainEqual({ check: 'database', reason: expect.stringMatching(/unreachable|timed out/) });
    expect(ready.json().failed.map((f: { check: string }) => f.check)).not.toContain('migrations');
  });
});
