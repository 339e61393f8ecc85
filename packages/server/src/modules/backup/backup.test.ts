import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { errorText } from '@tritium/shared';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { nodeClient } from '../../../test/node-helpers.ts';
import { createLocalFileStore, type FileStore } from '../files/file-store.ts';
import { createS3FileStore } from '../files/file-store-s3.ts';
import { startLocalS3 } from '../../../test/s3-server.ts';
import { backupEngine, restoreEngineFile } from './backup.service.ts';
import { migrateDown, migrateEngine, knownMigrations } from '../../db/migrate.ts';
import { backupPlatform, restorePlatform } from './platform-backup.ts';
import { openBackupFile } from './backup-file.ts';
import { bytesOf, filesUnder, fillEngine, rewriteBackup, schemaFingerprint, signIn, type Filled } from './backup.fixtures.ts';

// test-databases: both — one snapshot, text casts and DDL read back from the catalogue differ between the two.

// Backup and restore of one engine (docs/decisions/0127): into a fresh platform, as a new engine beside the original,
// and the files it refuses — leaving nothing behind.

let source: TestApp, target: TestApp, folder: string, sourceStore: FileStore, targetStore: FileStore;
let filled: Filled, file: string;

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'tritium-backup-'));
  source = await createTestApp({ config: { dataDir: path.join(folder, 'source') } });
  target = await createTestApp({ config: { dataDir: path.join(folder, 'target') } });
  sourceStore = createLocalFileStore(path.join(folder, 'source', 'files'));
  targetStore = createLocalFileStore(path.join(folder, 'target', 'files'));
  const admin = await registerPerson(source.app, { userName: '王管理' });
  filled = await fillEngine(source, admin);
  file = path.join(folder, 'engine.tar.gz');
  const seen: string[] = [];
  const written = await backupEngine({ db: source.database.db, store: sourceStore, engineCode: admin.engineCode, file, onProgress: (p) => seen.push(p.phase) });
  expect(written).toMatchObject({ engineCode: admin.engineCode, files: 3, missingFiles: 0 });
  expect(seen).toEqual(expect.arrayContaining(['tables', 'files', 'done']));
}, 120_000);
afterAll(async () => {
  await source?.close();
  await target?.close();
  rmSync(folder, { recursive: true, force: true });
});

const engineOf = (t: TestApp, code: string) => sql<{ state: string }>`select state from platform.engines where engine_code = ${code}`.execute(t.database.db).then((r) => r.rows[0]);
const schemaExists = (t: TestApp, code: string) => sql<{ n: number }>`select count(*)::int as n from pg_namespace where nspname = ${`e_${code}`}`.execute(t.database.db).then((r) => r.rows[0]!.n === 1);
const fileRows = (t: TestApp, code: string) => sql<{ id: string; storage_key: string }>`select id::text as id, storage_key from ${sql.id(`e_${code}`, 'files')} order by id`.execute(t.database.db).then((r) => r.rows);

describe('an engine restored into a fresh platform', () => {
  it('has the same rows in every table, the same files, and its people sign in and read their records', async () => {
    const code = filled.admin.engineCode;
    const summary = await restoreEngineFile({ db: target.database.db, store: targetStore, file });
    expect(summary).toMatchObject({ engineCode: code, from: code, files: 3 });
    expect(await schemaFingerprint(target.database.db, code)).toEqual(await schemaFingerprint(source.database.db, code));
    expect((await engineOf(target, code))?.state).toBe('normal');
    for (const row of await fileRows(source, code)) {
      expect(await bytesOf(targetStore, row.storage_key), row.storage_key).toEqual(await bytesOf(sourceStore, row.storage_key));
    }
    // The administrator and the member sign in with their own passwords and read what they read before.
    const admin = await signIn(target.app, filled.admin.mobile, filled.admin.password, code);
    const a = nodeClient(target.app, admin);
    const record = await a.post('/v1/form/loaddata', { schemaCode: filled.formCode, objectId: filled.recordIds[2] });
    expect(record.values).toMatchObject({ Title: '订单“1”', Amount: 1235.5, Tags: ['红', '蓝'] });
    const member = nodeClient(target.app, await signIn(target.app, filled.member.mobile, filled.member.password, code));
    const items = await member.get('/v1/workflow/instance/info', { instanceId: filled.instanceId });
    expect(items.myItems).toHaveLength(1);
    const download = await a.post('/v1/form/loaddata', { schemaCode: filled.formCode, objectId: filled.recordIds[1] });
    expect(download.values.Files[0].id).toBe(filled.fileIds[0]);
  }, 120_000);
});

describe('an engine restored as a new engine beside the original', () => {
  it('is a copy under the new code that works apart from the original', async () => {
    const from = filled.admin.engineCode;
    const copy = `copy${from.slice(0, 8)}`;
    const summary = await restoreEngineFile({ db: source.database.db, store: sourceStore, file, as: copy });
    expect(summary).toMatchObject({ engineCode: copy, from });
    // The files are copied under the new engine's keys, byte for byte; the code is nowhere else in the copy's rows.
    const originals = await fileRows(source, from);
    const copies = await fileRows(source, copy);
    expect(copies.map((r) => r.id)).toEqual(originals.map((r) => r.id));
    for (const [i, row] of copies.entries()) {
      expect(row.storage_key.startsWith(`${copy}/`)).toBe(true);
      expect(await bytesOf(sourceStore, row.storage_key)).toEqual(await bytesOf(sourceStore, originals[i]!.storage_key));
    }
    const tables = await sql<{ t: string }>`select relname as t from pg_class where relnamespace = ${`e_${copy}`}::regnamespace and relkind = 'r'`.execute(source.database.db);
    for (const { t } of tables.rows) {
      const n = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(`e_${copy}`, t)} x where strpos(x::text, ${from}) > 0`.execute(source.database.db);
      expect(n.rows[0]!.n, t).toBe(0);
    }
    // The same people sign in to either; a change in the copy leaves the original as it was.
    const a = nodeClient(source.app, await signIn(source.app, filled.admin.mobile, filled.admin.password, copy));
    await a.post('/v1/form/action/execute', { schemaCode: filled.formCode, actionCode: 'Save', objectId: filled.recordIds[1], values: { Title: '只改副本' } });
    expect((await a.post('/v1/form/loaddata', { schemaCode: filled.formCode, objectId: filled.recordIds[1] })).values.Title).toBe('只改副本');
    expect((await filled.a.post('/v1/form/loaddata', { schemaCode: filled.formCode, objectId: filled.recordIds[1] })).values.Title).toBe('订单“0”');
    const memberships = await sql<{ n: number }>`select count(*)::int as n from platform.memberships where engine_code = ${copy}`.execute(source.database.db);
    expect(memberships.rows[0]!.n).toBe(2);
  }, 120_000);
});

describe('an installation whose files are in a bucket', () => {
  it('gets the files uploaded into the bucket and checked, and backs the engine up from there', async () => {
    const s3 = await startLocalS3();
    try {
      const bucket = createS3FileStore(s3.settings('restored/'));
      const code = `s3${filled.admin.engineCode.slice(0, 8)}`;
      const summary = await restoreEngineFile({ db: target.database.db, store: bucket, file, as: code });
      expect(summary.files).toBe(3);
      const originals = await fileRows(source, filled.admin.engineCode);
      for (const [i, row] of (await fileRows(target, code)).entries()) {
        expect(await bytesOf(bucket, row.storage_key)).toEqual(await bytesOf(sourceStore, originals[i]!.storage_key));
      }
      expect(s3.requests.filter((r) => r.startsWith('PUT ')).length).toBeGreaterThanOrEqual(3);
      const again = await backupEngine({ db: target.database.db, store: bucket, engineCode: code, file: path.join(folder, 'from-bucket.tar.gz') });
      expect(again).toMatchObject({ files: 3, missingFiles: 0 });
      await bucket.close?.();
    } finally {
      await s3.close();
    }
  }, 120_000);
});

describe('files a restore refuses', () => {
  const refused = async (f: string, as: string) => {
    const error = await restoreEngineFile({ db: source.database.db, store: sourceStore, file: f, as }).then(
      () => undefined,
      (e: unknown) => e as { code?: number; message: string },
    );
    // Nothing is left: no schema, no engine row, no files under the code, no accounts.
    expect(await schemaExists(source, as)).toBe(false);
    expect(await engineOf(source, as)).toBeUndefined();
    expect(filesUnder(path.join(folder, 'source', 'files', as))).toEqual([]);
    expect(await accounts()).toBe(accountsBefore);
    return error;
  };
  const accounts = () => sql<{ n: number }>`select count(*)::int as n from platform.accounts`.execute(source.database.db).then((r) => r.rows[0]!.n);
  let accountsBefore: number;
  beforeAll(async () => {
    accountsBefore = await accounts();
  });
  const edited = async (name: string, edit: (entry: string, bytes: Buffer) => Buffer | undefined) => {
    const out = path.join(folder, name);
    await rewriteBackup(file, out, edit);
    return out;
  };
  const json = (bytes: Buffer) => JSON.parse(bytes.toString('utf8'));

  it('a manifest that does not match the rows, found after the files went into the store: 490003, the files removed', async () => {
    const altered = await edited('manifest.tar.gz', (entry, bytes) => {
      if (entry !== 'manifest.json') return bytes;
      const manifest = json(bytes);
      manifest.tables['engine.org_users'].checksum = '0'.repeat(64);
      return Buffer.from(JSON.stringify(manifest));
    });
    const seen: string[] = [];
    const error = await restoreEngineFile({ db: source.database.db, store: sourceStore, file: altered, as: 'maniacopy', onProgress: (p) => seen.push(p.phase) }).catch((e) => e);
    expect(error).toMatchObject({ code: 490003 });
    expect(error.message).toBe('备份文件已损坏或不完整：engine.org_users 的数据与清单不符');
    expect(errorText('BackupFileDamaged', 'en-US', error.detail)).toBe('The backup file is damaged or incomplete: the rows of engine.org_users differ from the manifest');
    expect(seen).toContain('files');
    expect(filesUnder(path.join(folder, 'source', 'files', 'maniacopy'))).toEqual([]);
    expect(await schemaExists(source, 'maniacopy')).toBe(false);
    // A file whose manifest entry was removed, and a file lacking one of the files.
    expect(await refused(await edited('nomanifest.tar.gz', (entry, bytes) => (entry === 'manifest.json' ? undefined : bytes)), 'nomancopy')).toMatchObject({ code: 490003 });
    const dropped = filled.fileIds[1]!;
    expect(await refused(await edited('nofile.tar.gz', (entry, bytes) => (entry === `files/${dropped}` ? undefined : bytes)), 'nofilecopy')).toMatchObject({ code: 490003 });
  }, 120_000);

  it('a file of a newer format or of a newer platform: 490004 and 490005, nothing done', async () => {
    const newer = await edited('newer.tar.gz', (entry, bytes) => (entry === 'backup.json' ? Buffer.from(JSON.stringify({ ...json(bytes), formatVersion: 99 })) : bytes));
    expect(await refused(newer, 'newercopy')).toMatchObject({ code: 490004 });
    const future = await edited('future.tar.gz', (entry, bytes) => {
      if (entry !== 'backup.json') return bytes;
      const header = json(bytes);
      header.migrations.engine.push('2099-01-01T0000_from-the-future');
      return Buffer.from(JSON.stringify(header));
    });
    const error = await refused(future, 'futurecopy');
    expect(error).toMatchObject({ code: 490005 });
    expect(error!.message).toContain('2099-01-01T0000_from-the-future');
  });

  it('a truncated file and a damaged one: 490003, nothing left behind', async () => {
    const bytes = readFileSync(file);
    const cut = path.join(folder, 'cut.tar.gz');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
    expect(await refused(cut, 'cutcopy1')).toMatchObject({ code: 490003 });
    const altered = Buffer.from(bytes);
    altered[Math.floor(bytes.length * 0.6)]! ^= 0xff;
    const bad = path.join(folder, 'bad.tar.gz');
    writeFileSync(bad, altered);
    expect(await refused(bad, 'badcopy1')).toMatchObject({ code: 490003 });
  }, 120_000);

  it('not a backup, a missing file, a code in use or not valid', async () => {
    const junk = path.join(folder, 'junk.tar.gz');
    writeFileSync(junk, 'not a backup');
    expect(await refused(junk, 'junkcopy')).toMatchObject({ code: 490002 });
    expect(await refused(path.join(folder, 'none.tar.gz'), 'nonecopy')).toMatchObject({ code: 490009 });
    expect(await restoreEngineFile({ db: source.database.db, store: sourceStore, file }).catch((e) => e)).toMatchObject({ code: 490006 });
    expect(await restoreEngineFile({ db: source.database.db, store: sourceStore, file, as: 'Bad-Code' }).catch((e) => e)).toMatchObject({ code: 490007 });
  });

  it('a backup of an engine that does not exist is refused and writes no file', async () => {
    const out = path.join(folder, 'nobody.tar.gz');
    const error = await backupEngine({ db: source.database.db, store: sourceStore, engineCode: 'nosuchengine', file: out }).catch((e) => e);
    expect(error).toMatchObject({ code: 490001 });
    expect(() => readFileSync(out)).toThrow();
  });
});

describe('an engine backed up by an older platform', () => {
  it('is restored at its level and migrated forward by the engine migrations', async () => {
    const old = await registerPerson(source.app, { userName: '旧版本' });
    await migrateDown(source.database.db, { engineCode: old.engineCode }, 1);
    const oldFile = path.join(folder, 'old.tar.gz');
    await backupEngine({ db: source.database.db, store: sourceStore, engineCode: old.engineCode, file: oldFile });
    await migrateEngine(source.database.db, old.engineCode);
    const all = knownMigrations().engine;
    const opened = await openBackupFile(oldFile);
    opened.close();
    expect(opened.header.migrations.engine).toEqual(all.slice(0, -1));
    const copy = `old${old.engineCode.slice(0, 8)}`;
    await restoreEngineFile({ db: target.database.db, store: targetStore, file: oldFile, as: copy });
    const applied = await sql<{ name: string }>`select name from ${sql.id(`e_${copy}`, 'kysely_migration')} order by name`.execute(target.database.db);
    expect(applied.rows.map((r) => r.name)).toEqual(all);
    expect((await engineOf(target, copy))?.state).toBe('normal');
    const a = nodeClient(target.app, await signIn(target.app, old.mobile, old.password, copy));
    expect(JSON.stringify(await a.get('/v1/user/info'))).toContain('旧版本');
  }, 120_000);
});

describe('the whole platform', () => {
  it('is backed up into a folder and restored into an empty platform, every engine as it was; a platform in use refuses it', async () => {
    const out = path.join(folder, 'platform');
    const done = await backupPlatform({ db: source.database.db, store: sourceStore, folder: out });
    const codes = (await sql<{ c: string }>`select engine_code as c from platform.engines order by 1`.execute(source.database.db)).rows.map((r) => r.c);
    expect(done.engines.map((e) => e.engineCode)).toEqual(codes);
    expect(await restorePlatform({ db: target.database.db, store: targetStore, path: out }).catch((e) => e)).toMatchObject({ code: 490008 });
    const empty = await createTestApp({ config: { dataDir: path.join(folder, 'empty') } });
    try {
      const emptyStore = createLocalFileStore(path.join(folder, 'empty', 'files'));
      const restored = await restorePlatform({ db: empty.database.db, store: emptyStore, path: out });
      expect(restored.engines.map((e) => e.engineCode)).toEqual(codes);
      for (const code of codes) expect(await schemaFingerprint(empty.database.db, code), code).toEqual(await schemaFingerprint(source.database.db, code));
      const platformRows = (t: TestApp) => sql<{ a: number; m: number }>`select (select count(*)::int from platform.accounts) as a, (select count(*)::int from platform.memberships) as m`.execute(t.database.db).then((r) => r.rows[0]);
      expect(await platformRows(empty)).toEqual(await platformRows(source));
      const member = nodeClient(empty.app, await signIn(empty.app, filled.member.mobile, filled.member.password, filled.admin.engineCode));
      expect((await member.get('/v1/workflow/instance/info', { instanceId: filled.instanceId })).myItems).toHaveLength(1);
      for (const row of await fileRows(source, filled.admin.engineCode)) expect(await bytesOf(emptyStore, row.storage_key)).toEqual(await bytesOf(sourceStore, row.storage_key));
    } finally {
      await empty.close();
    }
  }, 300_000);
});
