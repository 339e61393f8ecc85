import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, type Person } from '../../../test/node-helpers.ts';
import { engineDb } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { claimFiles } from './files.claim.ts';

// claimFiles: the business-data module binds uploads to a record inside its transaction (docs/decisions/0008).

let t: TestApp;
let dataDir: string;
let admin: Person;
let member: Person & { userId: string };
let adminUserId: string;
let outsider: Person;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-claim-'));
  t = await createTestApp({ config: { dataDir } });
  admin = await registerPerson(t.app);
  member = await addMember(t, admin);
  outsider = await registerPerson(t.app);
  const row = await engineDb(t.database.db, admin.engineCode).selectFrom('org_users').select('id').where('mobile', '=', admin.mobile).executeTakeFirstOrThrow();
  adminUserId = row.id;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function upload(who: { token: string; engineCode: string }, name = 'a.txt'): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/file/upload',
    query: { scene: 'attachment', fileName: name },
    headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode, 'content-type': 'application/octet-stream' },
    payload: Buffer.from(`bytes of ${name}`),
  });
  return res.json().data.fileId;
}

const edb = () => engineDb(t.database.db, admin.engineCode);
const claimOf = async (id: string) =>
  edb().selectFrom('files').select(['schema_code', 'object_id', 'control_code']).where('id', '=', id).executeTakeFirstOrThrow();
const record = { schemaCode: 'Orders', objectId: 'rec-1', controlCode: 'Attachments' };

async function errorOf(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('claimFiles', () => {
  it('binds pending files to the record and answers them as the control stores them, in order', async () => {
    const first = await upload(member, '报告.pdf');
    const second = await upload(member, 'b.txt');
    const claimed = await claimFiles(edb(), { ...record, fileIds: [second, first], userId: member.userId });
    expect(claimed).toEqual([
      { id: second, name: 'b.txt', size: 'bytes of b.txt'.length, contentType: 'text/plain' },
      { id: first, name: '报告.pdf', size: Buffer.byteLength('bytes of 报告.pdf'), contentType: 'application/pdf' },
    ]);
    expect(await claimOf(first)).toEqual({ schema_code: 'Orders', object_id: 'rec-1', control_code: 'Attachments' });
    // Saving the record again with the same files changes nothing.
    expect(await claimFiles(edb(), { ...record, fileIds: [first], userId: adminUserId })).toHaveLength(1);
    expect(await claimFiles(edb(), { ...record, fileIds: [] })).toEqual([]);
  });

  it('refuses a file another record or control holds, claiming none of the batch', async () => {
    const held = await upload(member);
    await claimFiles(edb(), { ...record, objectId: 'rec-2', fileIds: [held] });
    const fresh = await upload(member);
    for (const other of [{ ...record, objectId: 'rec-3' }, { ...record, objectId: 'rec-2', controlCode: 'Photos' }, { ...record, objectId: 'rec-2', schemaCode: 'Invoices' }]) {
      const error = await errorOf(claimFiles(edb(), { ...other, fileIds: [fresh, held] }));
      expect(error.errorName).toBe('FileAlreadyClaimed');
      expect(error.detail).toEqual({ fileIds: [held] });
    }
    expect(await claimOf(fresh)).toEqual({ schema_code: null, object_id: null, control_code: null });
  });

  it('refuses unknown, malformed and other engines\' ids, and another user\'s pending upload', async () => {
    const foreign = await upload(outsider);
    const members = await upload(member);
    for (const fileIds of [[foreign], ['not-a-uuid'], ['0192f1a2-0000-7000-8000-000000000000'], [members]]) {
      const error = await errorOf(claimFiles(edb(), { ...record, objectId: 'rec-4', fileIds, userId: adminUserId }));
      expect(error.errorName).toBe('FileNotFound');
      expect(error.detail).toEqual({ fileIds });
    }
    expect(await claimOf(members)).toEqual({ schema_code: null, object_id: null, control_code: null });
  });

  it('is undone with the transaction it ran in', async () => {
    const id = await upload(member);
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await claimFiles(engineDb(trx as unknown as Db, admin.engineCode), { ...record, objectId: 'rec-5', fileIds: [id] });
        expect(await engineDb(trx as unknown as Db, admin.engineCode).selectFrom('files').select('object_id').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ object_id: 'rec-5' });
        throw new Error('record save failed');
      }),
    ).rejects.toThrow('record save failed');
    expect(await claimOf(id)).toEqual({ schema_code: null, object_id: null, control_code: null });
  });

  it('lets only one of two concurrent claims of a file win', async () => {
    const id = await upload(member);
    const attempt = (objectId: string) =>
      t.database.db.transaction().execute((trx) => claimFiles(engineDb(trx as unknown as Db, admin.engineCode), { ...record, objectId, fileIds: [id] }));
    const results = await Promise.allSettled([attempt('rec-6'), attempt('rec-7')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((loser.reason as AppError).errorName).toBe('FileAlreadyClaimed');
  });
});
