import type { Kysely, Selectable } from 'kysely';
import type { EngineDb, FileTable } from '../../db/types.ts';

/** The engine's schema, outside or inside a transaction (a Transaction is a Kysely). */
export type FileExecutor = Kysely<EngineDb>;
export type FileRow = Selectable<FileTable>;

export async function insertFile(edb: FileExecutor, row: Omit<FileRow, 'created_time' | 'schema_code' | 'object_id' | 'control_code' | 'size'> & { size: number }): Promise<FileRow> {
  return edb.insertInto('files').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findFiles(edb: FileExecutor, ids: readonly string[]): Promise<FileRow[]> {
  if (!ids.length) return [];
  return edb.selectFrom('files').selectAll().where('id', 'in', ids).execute();
}

/** The rows, locked until the transaction ends (two claims of one file are decided one after the other). */
export async function lockFiles(edb: FileExecutor, ids: readonly string[]): Promise<FileRow[]> {
  if (!ids.length) return [];
  return edb.selectFrom('files').selectAll().where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

export async function setClaim(edb: FileExecutor, ids: readonly string[], claim: { schemaCode: string; objectId: string; controlCode: string }): Promise<void> {
  if (!ids.length) return;
  await edb
    .updateTable('files')
    .set({ schema_code: claim.schemaCode, object_id: claim.objectId, control_code: claim.controlCode })
    .where('id', 'in', ids)
    .where('schema_code', 'is', null)
    .execute();
}

/** The files a record holds (claimed to it, any control). */
export async function filesOfRecord(edb: FileExecutor, schemaCode: string, objectId: string): Promise<FileRow[]> {
  return edb.selectFrom('files').selectAll().where('schema_code', '=', schemaCode).where('object_id', '=', objectId).execute();
}

/** Deletes rows by id; answers the storage keys of the rows deleted (their bytes go after the commit). */
export async function deleteFiles(edb: FileExecutor, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await edb.deleteFrom('files').where('id', 'in', ids).returning('storage_key').execute();
  return rows.map((r) => r.storage_key);
}
