import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { FileStore } from '../files/file-store.ts';
import { deleteFiles, findFiles, lockFiles, setClaim, type FileRow } from '../files/files.repo.ts';
import { assertOwnPendingFile, faceImageOf } from './face-image.ts';

// Each person's reference photo (docs/decisions/0123 "Face check"): users have no photo of their own in the
// organisation, so an administrator uploads one through the files module and sets it on the member's details. The
// file is claimed to a place no form has (FACE_PHOTO_SCHEMA), so no record can take it and the file routes serve it to
// nobody: the reference is shown only to administrators, through this module.

export const FACE_PHOTO_SCHEMA = '$facePhoto';
export const FACE_CHECK_SCHEMA = '$faceCheck';

async function userNameOrThrow(edb: EngineExecutor, userId: string): Promise<string> {
  const user = await edb.selectFrom('org_users').select('name').where('id', '=', userId).executeTakeFirst();
  if (!user) throw new AppError('FacePersonNotFound');
  return user.name;
}

export async function getFacePhoto(edb: EngineExecutor, userId: string): Promise<contracts.FacePhotoDto> {
  await userNameOrThrow(edb, userId);
  const row = await edb
    .selectFrom('face_photos as p')
    .leftJoin('files as f', 'f.id', 'p.file_id')
    .select(['p.uploaded_time', 'f.name'])
    .where('p.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return { userId, hasPhoto: false, fileName: null, uploadedTime: null };
  return { userId, hasPhoto: true, fileName: row.name ?? null, uploadedTime: new Date(row.uploaded_time).toISOString() };
}

/** The stored photo's file row, or null. */
export async function facePhotoFile(edb: EngineExecutor, userId: string): Promise<FileRow | null> {
  const photo = await edb.selectFrom('face_photos').select('file_id').where('user_id', '=', userId).executeTakeFirst();
  if (!photo) return null;
  const [row] = await findFiles(edb, [photo.file_id]);
  return row ?? null;
}

/**
 * Sets a person's reference photo from a file the administrator uploaded (checked to be a picture the provider reads);
 * answers the storage keys of a replaced photo, whose bytes go once the transaction commits.
 */
export async function setFacePhoto(edb: EngineExecutor, store: FileStore, actorId: string, body: { userId: string; fileId: string }): Promise<{ photo: contracts.FacePhotoDto; dropped: string[] }> {
  await userNameOrThrow(edb, body.userId);
  const [row] = await lockFiles(edb, [body.fileId]);
  await faceImageOf(store, assertOwnPendingFile(row, actorId, body.fileId));
  const old = await edb.selectFrom('face_photos').select('file_id').where('user_id', '=', body.userId).forUpdate().executeTakeFirst();
  await setClaim(edb, [body.fileId], { schemaCode: FACE_PHOTO_SCHEMA, objectId: body.userId, controlCode: 'photo' });
  await edb
    .insertInto('face_photos')
    .values({ user_id: body.userId, file_id: body.fileId, uploaded_by: actorId, uploaded_time: new Date() })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ file_id: body.fileId, uploaded_by: actorId, uploaded_time: new Date() }))
    .execute();
  const dropped = old && old.file_id !== body.fileId ? await deleteFiles(edb, [old.file_id]) : [];
  return { photo: await getFacePhoto(edb, body.userId), dropped };
}

/** Removes a person's reference photo; answers the storage keys to delete after the commit. */
export async function removeFacePhoto(edb: EngineExecutor, userId: string): Promise<string[]> {
  const old = await edb.deleteFrom('face_photos').where('user_id', '=', userId).returning('file_id').executeTakeFirst();
  return old ? deleteFiles(edb, [old.file_id]) : [];
}
