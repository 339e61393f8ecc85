import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDatabase, type Database } from './database.ts';

// The embedded database's buffer cache is a setting (docs/decisions/0102): PGlite's memory grows to its peak and never
// shrinks, and PostgreSQL's default cache (128MB) was most of it.

describe('PGlite buffer cache', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'tritium-pglite-memory-'));
  const opened: Database[] = [];
  afterAll(async () => {
    for (const database of opened) await database.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('takes the configured size when the server opens its data folder', async () => {
    const database = await openDatabase({ pgliteDataDir: path.join(folder, 'a'), pgliteSharedBuffers: '16MB' });
    opened.push(database);
    const shown = await sql<{ shared_buffers: string; maintenance_work_mem: string }>`select current_setting('shared_buffers') as shared_buffers, current_setting('maintenance_work_mem') as maintenance_work_mem`.execute(database.db);
    expect(shown.rows[0]).toEqual({ shared_buffers: '16MB', maintenance_work_mem: '16MB' });
    // The other start settings PGlite needs (one process, no parallel workers) are kept.
    const workers = await sql<{ value: string }>`select current_setting('max_parallel_workers_per_gather') as value`.execute(database.db);
    expect(workers.rows[0]!.value).toBe('0');
  });

  it('defaults to 32MB and ignores a value that is not a size', () => {
    expect(loadConfig({}).pgliteSharedBuffers).toBe('32MB');
    expect(loadConfig({ TRITIUM_PGLITE_SHARED_BUFFERS: '64MB' }).pgliteSharedBuffers).toBe('64MB');
    expect(loadConfig({ TRITIUM_PGLITE_SHARED_BUFFERS: '64MB -c fsync=off' }).pgliteSharedBuffers).toBe('32MB');
  });
});
