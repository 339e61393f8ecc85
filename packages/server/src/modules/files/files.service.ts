import { PassThrough, Readable } from 'node:stream';
import { contracts, IMAGE_COMPRESSION } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { findEngine } from '../engine/engine.repo.ts';
import { assertEngineUsable } from '../engine/engine-state.ts';
import { viewerOf } from '../function-node/node-context.ts';
import type { FileStore } from './file-store.ts';
import type { FileUrlSigner } from './file-url.ts';
import { baseName, isAccepted, resolveContentType } from './content-type.ts';
import { assertCanReadFiles, isPending, type RecordFileAccess } from './files.policy.ts';
import { findFiles, insertFile, type FileRow } from './files.repo.ts';
import { presentFile } from './files.presenter.ts';
import { compressStoredImage } from './image-compression.ts';
import { MB, uploadCapBytes, type UploadTarget } from './upload-cap.ts';
import { storageKeyOf } from './storage-key.ts';
import { zipOfFiles } from './batch-download.ts';
import { copyStoredFiles } from './file-copy.ts';

/** Who acts in which engine. */
export interface FileContext {
  db: Db;
  engineCode: string;
  userId: string;
  authType: number;
}

export interface FileDeps {
  store: FileStore;
  urls: FileUrlSigner;
  recordAccess: RecordFileAccess;
}

/** GET /v1/file/policy/upload: the scene's rule (domain.md §9); the server compresses large images too (docs/decisions/0008). */
export function uploadPolicy(scene: contracts.FileScene): contracts.UploadPolicyResult {
  const rule: contracts.UploadSceneRule = contracts.UPLOAD_SCENES[scene];
  return {
    scene,
    maxSizeMb: rule.maxSizeMb,
    maxSizeBytes: rule.maxSizeMb * MB,
    maxCount: rule.maxCount,
    accept: [...rule.accept],
    imageCompression: rule.compressImages ? { thresholdMb: IMAGE_COMPRESSION.thresholdMb, quality: IMAGE_COMPRESSION.quality } : null,
    uploadUrl: `/v1/file/upload?scene=${scene}`,
  };
}

export interface UploadInput extends UploadTarget {
  scene: contracts.FileScene;
  fileName: string;
  contentType?: string;
  /** The request's Content-Type and Content-Length headers. */
  headerType?: string;
  headerLength?: number;
  body: unknown;
}

/**
 * Streams an upload to the store under its cap (the scene's, or lower for the control named), compresses a large
 * image, then records it as pending. Over the cap: 413 FileTooLarge, refused from Content-Length before a byte is
 * read, or while streaming; nothing is kept.
 */
export async function uploadFile(ctx: FileContext, deps: FileDeps, input: UploadInput): Promise<contracts.FileDto> {
  if (!(input.body instanceof Readable)) throw new AppError('FileBodyMissing');
  const rule: contracts.UploadSceneRule = contracts.UPLOAD_SCENES[input.scene];
  const edb = engineDb(ctx.db, ctx.engineCode);
  const maxBytes = await uploadCapBytes(edb, () => viewerOf(edb, ctx), input.scene, input);
  if (input.headerLength !== undefined && input.headerLength > maxBytes) throw new AppError('FileTooLarge', { detail: { maxBytes } });
  const name = baseName(input.fileName);
  if (!name) throw new AppError('ParameterVerificationFailed', { detail: { issues: [{ path: 'fileName', message: '缺少文件名' }] } });
  const contentType = resolveContentType(name, input.contentType, input.headerType);
  if (!isAccepted(rule.accept, name, contentType)) throw new AppError('FileTypeNotAccepted', { detail: { contentType, accept: rule.accept } });

  const id = newId();
  const storageKey = storageKeyOf(ctx.engineCode, id);
  const { size } = await deps.store.put(storageKey, detached(input.body), { maxBytes });
  try {
    const stored = rule.compressImages ? await compressStoredImage(deps.store, storageKey, { name, size, contentType }) : { name, size, contentType };
    const row = await insertFile(edb, { id, scene: input.scene, name: stored.name, size: stored.size, content_type: stored.contentType, storage_key: storageKey, created_by: ctx.userId });
    return presentFile(row);
  } catch (error) {
    await deps.store.delete(storageKey);
    throw error;
  }
}

/**
 * The request stream seen through a pass-through: when the store gives up (over the cap) it destroys the
 * pass-through, not the request, so the 413 answer still reaches the client. A request that breaks off fails it.
 */
function detached(source: Readable): Readable {
  const pass = new PassThrough();
  source.once('error', (error) => pass.destroy(error));
  source.once('close', () => {
    if (!source.readableEnded) pass.destroy(new Error('upload aborted'));
  });
  return source.pipe(pass);
}

/** The rows of `ids` the caller may read; FileNotFound (404) names every other one. */
async function readableFiles(ctx: FileContext, deps: FileDeps, ids: readonly string[]): Promise<FileRow[]> {
  const edb = engineDb(ctx.db, ctx.engineCode);
  const rows = await findFiles(edb, ids);
  await assertCanReadFiles(edb, await viewerOf(edb, ctx), ids, rows, deps.recordAccess);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)!);
}

/** POST /v1/file/headers */
export async function fileHeaders(ctx: FileContext, deps: FileDeps, ids: readonly string[]): Promise<contracts.FileHeadersResult> {
  const rows = await readableFiles(ctx, deps, ids);
  return { list: rows.map((row) => ({ ...presentFile(row), createdTime: new Date(row.created_time).toISOString(), isClaimed: !isPending(row) })) };
}

/** POST /v1/file/urls/byfileids: permission is decided here; the link then carries it for FILE_URL_TTL_SECONDS. */
export async function fileUrls(ctx: FileContext, deps: FileDeps, ids: readonly string[]): Promise<contracts.FileUrlsResult> {
  const rows = await readableFiles(ctx, deps, ids);
  return {
    list: rows.map((row) => {
      const { url, expiresAt } = deps.urls.sign(ctx.engineCode, row.id);
      return { fileId: row.id, url, expiresAt: expiresAt.toISOString() };
    }),
  };
}

/** GET of a signed link: the file's row and bytes, or FileUrlInvalid (403) / FileNotFound (404). */
export async function openSignedFile(db: Db, deps: FileDeps, link: { engineCode: string; fileId: string; expires: number; signature: string }): Promise<{ row: FileRow; body: Readable }> {
  if (!deps.urls.verify(link)) throw new AppError('FileUrlInvalid');
  const engine = await findEngine(db, link.engineCode);
  if (!engine) throw new AppError('FileNotFound');
  assertEngineUsable(engine, 403);
  const [row] = await findFiles(engineDb(db, link.engineCode), [link.fileId]);
  const body = row ? await deps.store.get(row.storage_key) : undefined;
  if (!row || !body) throw new AppError('FileNotFound');
  return { row, body };
}

/** POST /v1/file/batchdownload: the readable files as one zip (one refused id refuses the call, 404). */
export async function batchDownload(ctx: FileContext, deps: FileDeps, ids: readonly string[]): Promise<Readable> {
  return zipOfFiles(deps.store, await readableFiles(ctx, deps, ids));
}

/**
 * POST /v1/form/copyfile: copies files of one record (each readable by the caller, each held by that record — and
 * by `controlCode` when given) into new pending files of the caller, for a copy of the record to claim.
 */
export async function copyFiles(ctx: FileContext, deps: FileDeps, input: { schemaCode: string; objectId: string; controlCode?: string; fileIds: readonly string[] }): Promise<contracts.CopyFileResult> {
  const rows = await readableFiles(ctx, deps, input.fileIds);
  const foreign = rows.filter((r) => r.schema_code?.toLowerCase() !== input.schemaCode.toLowerCase() || r.object_id !== input.objectId || (input.controlCode !== undefined && r.control_code !== input.controlCode));
  if (foreign.length) throw new AppError('FileNotFound', { detail: { fileIds: foreign.map((r) => r.id) } });
  const copies = await copyStoredFiles(engineDb(ctx.db, ctx.engineCode), deps.store, ctx.engineCode, ctx.userId, rows);
  return { list: copies.map((c) => ({ sourceFileId: c.sourceFileId, fileId: c.id, name: c.name, size: c.size, contentType: c.contentType })) };
}
