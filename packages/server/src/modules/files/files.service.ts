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

const MB = 1024 * 1024;

/** GET /v1/file/policy/upload: the scene's rule (domain.md §9). Compression is the browser's job (docs/decisions/0008). */
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

export interface UploadInput {
  scene: contracts.FileScene;
  fileName: string;
  contentType?: string;
  /** The request's Content-Type and Content-Length headers. */
  headerType?: string;
  headerLength?: number;
  body: unknown;
}

/**
 * Streams an upload to the store under the scene's cap, then records it as pending. Over the cap: 413
 * FileTooLarge, refused from Content-Length before a byte is read, or while streaming; nothing is kept.
 */
export async function uploadFile(ctx: FileContext, deps: FileDeps, input: UploadInput): Promise<contracts.FileDto> {
  if (!(input.body instanceof Readable)) throw new AppError('FileBodyMissing');
  const rule = contracts.UPLOAD_SCENES[input.scene];
  const maxBytes = rule.maxSizeMb * MB;
  if (input.headerLength !== undefined && input.headerLength > maxBytes) throw new AppError('FileTooLarge', { detail: { maxBytes } });
  const name = baseName(input.fileName);
  if (!name) throw new AppError('ParameterVerificationFailed', { detail: { issues: [{ path: 'fileName', message: '缺少文件名' }] } });
  const contentType = resolveContentType(name, input.contentType, input.headerType);
  if (!isAccepted(rule.accept, name, contentType)) throw new AppError('FileTypeNotAccepted', { detail: { contentType, accept: rule.accept } });

  const id = newId();
  const now = new Date();
  const storageKey = `${ctx.engineCode}/${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}/${id}`;
  const { size } = await deps.store.put(storageKey, detached(input.body), { maxBytes });
  try {
    const row = await insertFile(engineDb(ctx.db, ctx.engineCode), { id, scene: input.scene, name, size, content_type: contentType, storage_key: storageKey, created_by: ctx.userId });
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
