import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/database.ts';
import { migratePlatform, prepareSpareEngineSchemas } from '../src/db/migrate.ts';
import { templateTar } from './template-tar.ts';
// @ts-expect-error: a script of plain JavaScript, without types
import { buildServer, workersOf } from '../../../scripts/build-server.mjs';

/** Engine schemas migrated once in the template: most files register one to three engines (docs/testing.md). */
const SPARE_ENGINES = 3;

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
    serverBundle: string;
  }
}

/** Builds one migrated template per run; each test file starts from a copy (stack.md "Tests"). */
export default async function setup(project: TestProject) {
  // test.env reaches the workers, not this process: read it from the project's config.
  const kind = project.config.env?.TEST_DB_KIND ?? process.env.TEST_DB_KIND ?? 'pglite';
  const removeBundle = await provideServerBundle(project, kind);
  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set');
    const name = `tritium_tpl_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const tplUrl = new URL(url);
    tplUrl.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: tplUrl.toString() });
    await migratePlatform(database.db);
    await prepareSpareEngineSchemas(database.db, SPARE_ENGINES);
    await database.close();
    project.provide('pgTemplate', name);
    project.provide('pgliteTemplate', '');
    return async () => {
      removeBundle();
      const leftovers = await admin.query(`select datname from pg_database where datname like 'tritium_test_%' and datname like $1`, [`%_${process.pid}_%`]);
      for (const row of leftovers.rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-tpl-'));
  const pglite = await PGlite.create();
  const database = await openDatabase({ pglite });
  await migratePlatform(database.db);
  await prepareSpareEngineSchemas(database.db, SPARE_ENGINES);
  // A checkpoint first: a file's PGlite then starts without replaying the migrations' WAL (about 0.1 s of CPU a file).
  await pglite.query('checkpoint');
  const templates = await pglite.query<{ oid: number }>(`select oid from pg_database where datistemplate`);
  const wal = await pglite.query<{ segment: string }>(`select pg_walfile_name(pg_current_wal_insert_lsn()) as segment`);
  const dump = await pglite.dumpDataDir('none');
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, templateTar(new Uint8Array(await dump.arrayBuffer()), { templateDatabases: templates.rows.map((r) => r.oid), currentWalSegment: wal.rows[0]!.segment }));
  await database.close();
  project.provide('pgliteTemplate', file);
  project.provide('pgTemplate', '');
  return () => {
    removeBundle();
    rmSync(dir, { recursive: true, force: true });
  };
}

/**
 * The server the kill tests start (test/server-process.ts) is the one `npm start` runs: the built bundle
 * (docs/decisions/0093), built once per run and project beside the sources' packages. Through tsx every start compiled
 * the sources again: about twice as long a start, and those tests start servers 25-odd times a run.
 */
async function provideServerBundle(project: TestProject, kind: string): Promise<() => void> {
  const file = path.resolve(import.meta.dirname, `../dist/test-server-${kind}-${process.pid}.mjs`);
  await buildServer(file);
  project.provide('serverBundle', file);
  return () => {
    for (const built of [file, ...workersOf(file)]) {
      rmSync(built, { force: true });
      rmSync(`${built}.map`, { force: true });
    }
  };
}
