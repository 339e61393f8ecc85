import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../db/database.ts';
import { lockDataDir } from '../../lib/data-lock.ts';
import { createTestApp, pgliteOnce, registerPerson } from '../../../test/helpers.ts';
import { createLocalFileStore } from '../files/file-store.ts';
import { bytesOf, schemaFingerprint, signIn, upload } from './backup.fixtures.ts';
import { nodeClient } from '../../../test/node-helpers.ts';
import { createApp } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';

// test-databases: both — the commands on the embedded data folder (with its lock) and on PostgreSQL by DATABASE_URL.

// The operator's commands (docs/deploy.md "Backups"): `npm run backup` and `npm run restore` as child processes on an
// installation's settings, from one installation into a fresh one.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const isPostgres = process.env.TEST_DB_KIND === 'postgres';
let folder: string;
const installations: { dataDir: string; databaseUrl: string }[] = [];
const dropDatabases: string[] = [];
let admin: { client: pg.Client } | undefined;

/** A data folder, with (PostgreSQL) a database from the run's migrated template, or (PGlite) an empty folder when `empty`. */
async function installation(name: string, empty: boolean) {
  const dataDir = path.join(folder, name);
  mkdirSync(dataDir, { recursive: true });
  let databaseUrl = '';
  if (isPostgres) {
    const database = `tritium_cli_${name}_${process.pid}_${Date.now().toString(36)}`;
    if (!admin) {
      admin = { client: new pg.Client({ connectionString: process.env.TEST_DATABASE_URL }) };
      await admin.client.connect();
    }
    await admin.client.query(empty ? `create database ${database}` : `create database ${database} template ${inject('pgTemplate')}`);
    dropDatabases.push(database);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  } else if (!empty) {
    const template = await PGlite.create({ ...(await pgliteOnce()), dataDir: path.join(dataDir, 'pglite') });
    await template.close();
  }
  const it = { dataDir, databaseUrl };
  installations.push(it);
  return it;
}

const open = (i: { dataDir: string; databaseUrl: string }) => openDatabase(i.databaseUrl ? { databaseUrl: i.databaseUrl } : { pgliteDataDir: path.join(i.dataDir, 'pglite') });

function run(script: 'backup' | 'restore', args: string[], i: { dataDir: string; databaseUrl: string }): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `packages/server/src/${script}.ts`, ...args], {
      cwd: root,
      env: { ...process.env, TRITIUM_DATA_DIR: i.dataDir, DATABASE_URL: i.databaseUrl, TRITIUM_FILE_STORE: 'folder' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

let source: { dataDir: string; databaseUrl: string };
let engineCode: string, mobile: string, password: string, formCode: string, objectId: string, fingerprint: Record<string, string>;

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'tritium-backup-cli-'));
  source = await installation('source', false);
  const database = await open(source);
  const t = await createTestApp({ database, config: { dataDir: source.dataDir } });
  const person = await registerPerson(t.app, { userName: '赵运维' });
  ({ engineCode, mobile, password } = person);
  const a = nodeClient(t.app, person);
  const appCode = (await createApp(a)).code as string;
  formCode = (await createForm(a, appCode)).code as string;
  await publish(a, formCode, definition([{ type: 'textBox', code: 'Title' }, { type: 'attachment', code: 'Files' }, { type: 'gridView', code: 'Lines', controls: [{ type: 'number', code: 'Qty' }] }]));
  const file = await upload(t.app, person, '发票.png', Buffer.alloc(5000, 7));
  objectId = (await a.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Submit', values: { Title: '运维记录', Files: [{ id: file.fileId, name: file.name, size: file.size, contentType: file.contentType }] }, children: { Lines: [{ Qty: 2 }] } })).objectId;
  fingerprint = await schemaFingerprint(database.db, engineCode);
  await t.close();
  await database.close();
}, 120_000);
afterAll(async () => {
  for (const name of dropDatabases) await admin?.client.query(`drop database if exists ${name} with (force)`);
  await admin?.client.end();
  rmSync(folder, { recursive: true, force: true });
});

describe('npm run backup and npm run restore', () => {
  it('back up an engine and restore it into a fresh installation, where its people sign in', async () => {
    const file = path.join(folder, 'org.tar.gz');
    const backup = await run('backup', ['--engine', engineCode, '--out', file], source);
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain('Done:');
    expect(existsSync(file)).toBe(true);

    // A data folder with nothing in it (PGlite: created by the command); on PostgreSQL a migrated database without engines.
    const fresh = await installation('fresh', !isPostgres);
    const restore = await run('restore', ['--file', file], fresh);
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toContain(`Done: engine ${engineCode}`);
    // The same file again: the code is taken, a catalogue error in both languages, exit code 1.
    const again = await run('restore', ['--file', file], fresh);
    expect(again.code).toBe(1);
    expect(again.out).toContain('490006');
    expect(again.out).toContain('is taken');

    const database = await open(fresh);
    try {
      expect(await schemaFingerprint(database.db, engineCode)).toEqual(fingerprint);
      const t = await createTestApp({ database, config: { dataDir: fresh.dataDir } });
      try {
        const a = nodeClient(t.app, await signIn(t.app, mobile, password, engineCode));
        const record = await a.post('/v1/form/loaddata', { schemaCode: formCode, objectId });
        expect(record.values.Title).toBe('运维记录');
        const key = `${engineCode}/`;
        const stored = createLocalFileStore(path.join(fresh.dataDir, 'files'));
        const original = createLocalFileStore(path.join(source.dataDir, 'files'));
        const rows = (await database.db.selectFrom(`e_${engineCode}.files` as never).select('storage_key' as never).execute()) as { storage_key: string }[];
        expect(rows).toHaveLength(1);
        expect(rows[0]!.storage_key.startsWith(key)).toBe(true);
        expect(await bytesOf(stored, rows[0]!.storage_key)).toEqual(await bytesOf(original, rows[0]!.storage_key));
      } finally {
        await t.close();
      }
    } finally {
      await database.close();
    }
  }, 300_000);

  it.skipIf(isPostgres)('refuse to run on a data folder the server holds', async () => {
    const lock = await lockDataDir(source.dataDir);
    try {
      const refused = await run('backup', ['--engine', engineCode, '--out', path.join(folder, 'locked.tar.gz')], source);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain(`pid ${process.pid}`);
      expect(existsSync(path.join(folder, 'locked.tar.gz'))).toBe(false);
    } finally {
      lock.release();
    }
  }, 60_000);

  it('back up the whole platform into a folder, restored into an empty installation', async () => {
    const out = path.join(folder, 'all');
    const backup = await run('backup', ['--all', '--out', out], source);
    expect(backup.code, backup.out).toBe(0);
    expect(existsSync(path.join(out, 'platform.tar.gz'))).toBe(true);
    expect(existsSync(path.join(out, `engine-${engineCode}.tar.gz`))).toBe(true);
    const empty = await installation('empty', false);
    const restore = await run('restore', ['--file', out], empty);
    expect(restore.code, restore.out).toBe(0);
    const database = await open(empty);
    try {
      expect(await schemaFingerprint(database.db, engineCode)).toEqual(fingerprint);
    } finally {
      await database.close();
    }
  }, 300_000);
});
