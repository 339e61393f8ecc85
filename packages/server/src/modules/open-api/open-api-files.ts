import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import { saveRecordIn } from '../business-data/record.service.ts';
import { findRecord } from '../business-data/records.repo.ts';
import { presentValues } from '../business-data/record.presenter.ts';
import { deleteStoredBytes } from '../business-data/record-files.ts';
import { recordFileAccess } from '../business-data/record-file-access.ts';
import type { FileStore } from '../files/file-store.ts';
import { createFileUrlSigner } from '../files/file-url.ts';
import { uploadFile, type FileDeps } from '../files/files.service.ts';
import { assertCanReadFiles } from '../files/files.policy.ts';
import { deleteFiles, findFiles, type FileRow } from '../files/files.repo.ts';
import { badRequest } from './open-api-params.ts';

// The product's attachment calls (h3yun-facts §1.4; docs/decisions/0030), on the files module: the upload streams
// into the file store under the control's cap (uploadFile), then the record claims the file through its own save
// (saveRecordIn → claimRecordFiles), so the files' rules — caps, types, one record per file, data log — all hold.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The files module's dependencies as the open API uses them: it streams bytes and reads them, it hands out no links. */
export function openApiFileDeps(store: FileStore): FileDeps {
  return { store, urls: createFileUrlSigner(randomBytes(32)), recordAccess: recordFileAccess };
}

export interface UploadTarget {
  schemaCode: string;
  filePropertyName: string;
  bizObjectId: string;
}

/** Checks the target before a byte is read: the form, its attachment or image field, the record. */
export async function uploadTargetOf(ctx: NodeContext, query: Record<string, unknown>): Promise<UploadTarget & { scene: 'attachment' | 'image' }> {
  const pick = (key: string) => {
    const found = Object.entries(query).find(([k]) => k.toLowerCase() === key.toLowerCase())?.[1];
    const value = Array.isArray(found) ? found[0] : found;
    if (typeof value !== 'string' || !value.trim() || value.length > 200) throw badRequest([{ path: key, message: '必填（查询参数）' }]);
    return value.trim();
  };
  const target = { schemaCode: pick('SchemaCode'), filePropertyName: pick('FilePropertyName'), bizObjectId: pick('BizObjectId') };
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, target.schemaCode);
  const field = form.fields.find((f) => f.code === target.filePropertyName);
  if (!field || (field.type.key !== 'attachment' && field.type.key !== 'photo')) {
    throw new AppError('OpenApiFileFieldInvalid', { detail: { issues: [{ path: 'FilePropertyName', message: `表单 ${form.node.code} 没有附件或图片字段 ${target.filePropertyName}` }] } });
  }
  if (!UUID.test(target.bizObjectId) || !(await findRecord(engineOf(ctx), form, target.bizObjectId))) {
    throw new AppError('BizObjectNotFound', { detail: { objectId: target.bizObjectId } });
  }
  return { ...target, scene: field.type.key === 'photo' ? 'image' : 'attachment' };
}

/**
 * Stores the file and adds it to the record's field (after the files it holds), keeping the record's status; answers
 * the new file's id. A refused save leaves no file behind.
 */
export async function uploadAttachment(
  ctx: NodeContext,
  store: FileStore,
  target: UploadTarget & { scene: 'attachment' | 'image' },
  file: { fileName: string; contentType: string | undefined; body: Readable },
): Promise<string> {
  const deps = openApiFileDeps(store);
  const stored = await uploadFile(ctx, deps, {
    scene: target.scene,
    fileName: file.fileName,
    contentType: file.contentType,
    body: file.body,
    schemaCode: target.schemaCode,
    controlCode: target.filePropertyName,
  });
  const dropped: string[] = [];
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const edb = engineDb(trx as unknown as Db, ctx.engineCode);
      const form = await getRuntimeFormOrThrow(edb, ctx, target.schemaCode);
      const row = await findRecord(edb, form, target.bizObjectId, { forUpdate: true });
      if (!row) throw new AppError('BizObjectNotFound', { detail: { objectId: target.bizObjectId } });
      const field = form.fields.find((f) => f.code === target.filePropertyName)!;
      const held = presentValues([field], row)[field.code];
      const refs = [...(Array.isArray(held) ? held : held ? [held] : []), { id: stored.fileId, name: stored.name, size: stored.size, contentType: stored.contentType }];
      const saved = await saveRecordIn(edb, ctx, form, { objectId: target.bizObjectId, submit: false, values: { [field.code]: refs } }, {
        // Attaching a file is not a status change: a running or effective record stays as it is.
        status: (current) => current ?? BizObjectStatus.Draft,
      });
      dropped.push(...saved.dropped);
    });
  } catch (error) {
    const edb = engineDb(ctx.db, ctx.engineCode);
    const [row] = await findFiles(edb, [stored.fileId]);
    if (row && row.schema_code === null) await deleteStoredBytes({ store }, await deleteFiles(edb, [stored.fileId]));
    throw error;
  }
  await deleteStoredBytes({ store }, dropped);
  return stored.fileId;
}

/** A file of the engine the secret's Administrator may read (a record's file, or a pending one of theirs), or 260001. */
export async function openAttachment(ctx: NodeContext, store: FileStore, attachmentId: string): Promise<{ row: FileRow; body: Readable }> {
  if (!UUID.test(attachmentId)) throw new AppError('FileNotFound', { detail: { fileIds: [attachmentId] } });
  const edb = engineDb(ctx.db, ctx.engineCode);
  const rows = await findFiles(edb, [attachmentId]);
  await assertCanReadFiles(edb, await viewerOf(edb, ctx), [attachmentId], rows, recordFileAccess);
  const body = await store.get(rows[0].storage_key);
  if (!body) throw new AppError('FileNotFound', { detail: { fileIds: [attachmentId] } });
  return { row: rows[0], body };
}
